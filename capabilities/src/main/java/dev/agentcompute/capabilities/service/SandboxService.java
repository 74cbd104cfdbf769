package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.model.AgentFacingException;
import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.Names;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.model.SandboxNetwork;
import dev.agentcompute.capabilities.platform.Platform;
import dev.agentcompute.capabilities.platform.PlatformRouter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.random.RandomGenerator;

/**
 * sandbox.* (docs/reference/capabilities.md#sandboxes): creation with generated names and rollback,
 * listing across platforms, TTL extension, pins, deletion, and the reaper's guarded deletion.
 * Validation runs in the original's order: pin identity, TTL, name, platform, then existence under
 * the gate.
 */
public final class SandboxService {
  /** The platform of a sandbox created without one. */
  public static final String DEFAULT_PLATFORM = "incus";

  private final SandboxAccess access;
  private final PlatformRouter router;
  private final ComputeConfig config;
  private final SandboxNameGenerator names;
  private final QuotaChecks quotas;
  private final IdentityQuotas identityQuotas;

  /** One lock per identity: its creations count its live sandboxes one at a time. */
  private final java.util.concurrent.ConcurrentHashMap<String, Object> creators =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** Told the name of each sandbox deleted or reaped (the screenshot store purges it). */
  private final List<Consumer<String>> deletionListeners = new CopyOnWriteArrayList<>();

  public SandboxService(SandboxAccess access, ComputeConfig config, RandomGenerator random) {
    this.access = access;
    this.router = access.router();
    this.config = config;
    this.names = new SandboxNameGenerator(random, config.isolation().owner());
    this.quotas = new QuotaChecks(config.quotas());
    this.identityQuotas = new IdentityQuotas(access, quotas);
  }

  /** A new sandbox with its default network (empty for platforms without networks). */
  public record Created(Sandbox sandbox, Optional<SandboxNetwork> network) {}

  public Created create(
      String subject, String name, String platform, long ttlMinutes, boolean pinned) {
    String who = subject == null ? "" : subject;
    synchronized (creators.computeIfAbsent(who, k -> new Object())) {
      return createChecked(subject, name, platform, ttlMinutes, pinned);
    }
  }

  private Created createChecked(
      String subject, String name, String platform, long ttlMinutes, boolean pinned) {
    if (pinned && !mayPin(subject)) {
      throw Errors.pinningRequiresOperator();
    }
    Duration ttl = config.ttl().resolve(ttlMinutes);
    boolean named = name != null && !name.isEmpty();
    if (named) {
      Names.require(name);
    }
    String wanted = platform == null || platform.isEmpty() ? DEFAULT_PLATFORM : platform;
    if (ttl.compareTo(quotas.quotas().maxLifetime()) > 0) {
      throw Errors.of(
          "ttl_minutes %d is longer than the maximum lifetime of %d minutes"
              + " (sandbox.max_lifetime_minutes)",
          ttl.toMinutes(), quotas.quotas().maxLifetime().toMinutes());
    }
    Platform target =
        router
            .platform(wanted)
            .orElseThrow(() -> Errors.of("platform \"%s\" is not available yet", wanted));
    String who = subject == null ? "" : subject;
    quotas.sandboxesOf(who, identityQuotas.liveSandboxesOf(who, "sandbox quota"), access.now());
    if (named) {
      return createNamed(target, subject, name, ttl, pinned);
    }
    for (int attempt = 0; attempt < SandboxNameGenerator.ATTEMPTS; attempt++) {
      try {
        return createNamed(target, subject, names.next(), ttl, pinned);
      } catch (AgentFacingException e) {
        if (!e.getMessage().endsWith("\" already exists")
            && !e.getMessage().contains("\" is still being deleted")) {
          throw e;
        }
      }
    }
    throw Errors.of("unable to allocate a sandbox name");
  }

  private Created createNamed(
      Platform target, String subject, String name, Duration ttl, boolean pinned) {
    return access.gated(
        name,
        () -> {
          if (router.find(name).isPresent()) {
            throw Errors.sandboxExists(name);
          }
          Instant now = access.now();
          Sandbox sandbox =
              new Sandbox(
                  name,
                  target.name(),
                  now,
                  now.plus(ttl),
                  subject,
                  false,
                  "",
                  null,
                  config.defaultNetworkKind(),
                  config.member());
          if (pinned) {
            sandbox = sandbox.pinnedBy(subject, now);
          }
          try {
            target.sandboxes().create(sandbox);
          } catch (BackendException e) {
            if (e.kind() == BackendException.Kind.CONFLICT) {
              throw target.sandboxes().isDeleting(name)
                  ? Errors.sandboxStillDeleting(name)
                  : Errors.sandboxExists(name);
            }
            rollBack(target, name, e);
            throw e;
          } catch (RuntimeException e) {
            rollBack(target, name, e);
            throw e;
          }
          if (target.networks().isEmpty()) {
            return new Created(sandbox, Optional.empty());
          }
          Optional<SandboxNetwork> network =
              target.networks().get().list(sandbox).stream()
                  .filter(n -> n.name().equals(Names.DEFAULT))
                  .findFirst();
          if (network.isEmpty()) {
            throw new BackendException(
                BackendException.Kind.FAILED, "sandbox " + name + " has no default network");
          }
          return new Created(sandbox, network);
        });
  }

  /** A creation that failed half-way leaves nothing behind (what was created is deleted again). */
  private static void rollBack(Platform target, String name, RuntimeException failure) {
    try {
      target.sandboxes().delete(name);
    } catch (RuntimeException cleanup) {
      failure.addSuppressed(cleanup);
    }
  }

  private boolean mayPin(String subject) {
    return subject != null && !subject.isEmpty() && config.pinIdentities().contains(subject);
  }

  /** A listed sandbox with its instance count. */
  public record Listed(Sandbox sandbox, int instances) {}

  /**
   * Every sandbox of every platform, with instance counts asked of each platform once for all its
   * sandboxes; one that cannot be read fails the whole list
   * (docs/reference/capabilities.md#sandboxlist-sandboxget).
   */
  public List<Listed> list() {
    return counted(router.list());
  }

  /** What one identity's live sandboxes hold now: how many, and their instances together. */
  public record Usage(int sandboxes, long instances) {}

  /**
   * What {@code subject}'s live sandboxes hold (sandbox.limits), counted by the same code as the
   * identity quotas ({@link IdentityQuotas#usage}): over the platforms that answer, the sandboxes
   * it created that have not expired.
   */
  public Usage usage(String subject) {
    return identityQuotas.usage(subject == null ? "" : subject, "sandbox.limits");
  }

  /** {@code sandboxes} with their instance counts, asked of each platform once for all of them. */
  private List<Listed> counted(List<Sandbox> sandboxes) {
    Map<String, Integer> counts = new HashMap<>();
    for (Platform platform : router.platforms()) {
      List<Sandbox> own =
          sandboxes.stream().filter(s -> s.platform().equals(platform.name())).toList();
      if (!own.isEmpty()) {
        counts.putAll(platform.instances().count(own));
      }
    }
    List<Listed> result = new ArrayList<>();
    for (Sandbox sandbox : sandboxes) {
      result.add(new Listed(sandbox, counts.getOrDefault(sandbox.name(), 0)));
    }
    return result;
  }

  /** One sandbox with its instances and networks (none on platforms without networks). */
  public record Detail(
      Sandbox sandbox, List<SandboxInstance> instances, List<SandboxNetwork> networks) {}

  /**
   * Whether {@code subject} sees {@code sandbox} in sandbox.list, sandbox.get and the resources:
   * always, unless the configuration limits agents to the sandboxes they created.
   */
  public boolean visibleTo(String subject, Sandbox sandbox) {
    String caller = subject == null ? "" : subject;
    if (!config.isolation().mayReach(caller, sandbox.subject())) {
      return false;
    }
    return !config.ownerVisibility()
        || config.isolation().operators().contains(caller)
        || sandbox.subject().equals(caller);
  }

  /** {@link #get}, as a missing sandbox when the subject may not see it. */
  public Detail get(String subject, String name) {
    Detail detail = get(name);
    if (!visibleTo(subject, detail.sandbox())) {
      throw Errors.sandboxNotFound(name);
    }
    return detail;
  }

  public Detail get(String name) {
    Sandbox sandbox = access.require(name);
    List<SandboxNetwork> networks =
        router.of(sandbox).networks().map(d -> d.list(sandbox)).orElse(List.of());
    return new Detail(sandbox, router.instances(sandbox).list(sandbox), networks);
  }

  /** Expiry replaced by now + TTL (not added to the old one); works on pinned sandboxes too. */
  /**
   * What {@link #extend} did: the expiry now in force, and the one {@code ttl_minutes} from now
   * asked for (later than the expiry when the sandbox already lived longer: it was kept).
   */
  public record Extension(Instant expiresAt, Instant requested) {
    public boolean kept() {
      return requested.isBefore(expiresAt);
    }
  }

  /**
   * Sets the expiry to {@code ttlMinutes} from now unless the sandbox already lives longer (ours:
   * the original replaced it, so an agent asking for 60 minutes could shorten a 4-hour sandbox).
   */
  public Extension extend(String name, long ttlMinutes) {
    Duration ttl = config.ttl().resolve(ttlMinutes);
    Instant[] requested = new Instant[1];
    Instant expiry =
        access.live(
            name,
            sandbox -> {
              quotas.lifetime(sandbox, access.now().plus(ttl));
              return store(
                      sandbox,
                      name,
                      current -> {
                        requested[0] = access.now().plus(ttl);
                        return requested[0].isAfter(current.expiresAt())
                            ? current.withExpiresAt(requested[0])
                            : current;
                      })
                  .expiresAt();
            });
    return new Extension(expiry, requested[0]);
  }

  /**
   * Hears every change of a sandbox's pin: who, which sandbox (as stored after it), pinned or not.
   */
  @FunctionalInterface
  public interface PinListener {
    void pinChanged(String subject, Sandbox sandbox, boolean pinned);
  }

  private final List<PinListener> pinListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** Calls {@code listener} after every pin or unpin that changed a sandbox's pin state. */
  public void onPinChanged(PinListener listener) {
    pinListeners.add(listener);
  }

  /** Pins or unpins; the identity is checked before anything is read. */
  public Sandbox pin(String subject, String name, boolean pinned) {
    if (!mayPin(subject)) {
      throw Errors.pinningRequiresOperator();
    }
    boolean[] changed = {false};
    Sandbox after = pinOnce(subject, name, pinned, changed);
    if (changed[0]) {
      for (PinListener listener : pinListeners) {
        try {
          listener.pinChanged(subject, after, pinned);
        } catch (RuntimeException e) {
          // The pin is stored; a listener's failure must not turn it into an error.
        }
      }
    }
    return after;
  }

  private Sandbox pinOnce(String subject, String name, boolean pinned, boolean[] changed) {
    return access.live(
        name,
        sandbox ->
            store(
                sandbox,
                name,
                current -> {
                  if (current.pinned() == pinned) {
                    changed[0] = false;
                    return current; // re-pinning keeps the first pin's attribution
                  }
                  changed[0] = true;
                  return pinned ? current.pinnedBy(subject, access.now()) : current.unpinned();
                }));
  }

  /**
   * Applies {@code change} to the stored record as one optimistic step, checking again inside it
   * that the sandbox is live: another server may have changed or expired it since the gate's read.
   */
  private Sandbox store(Sandbox sandbox, String name, UnaryOperator<Sandbox> change) {
    return router
        .of(sandbox)
        .sandboxes()
        .update(
            name,
            current -> {
              if (!current.isLive(access.now())) {
                throw Errors.sandboxExpired(name);
              }
              return change.apply(current);
            })
        .orElseThrow(() -> Errors.sandboxNotFound(name));
  }

  /** Calls {@code listener} with the name of every sandbox this service deletes or reaps. */
  public void onDeleted(Consumer<String> listener) {
    deletionListeners.add(listener);
  }

  private void deleted(String name) {
    deletionListeners.forEach(listener -> listener.accept(name));
  }

  /**
   * Deletes a sandbox. Where the platform can {@link
   * dev.agentcompute.capabilities.platform.SandboxStore#retire retire} it (Incus), the call returns
   * once the sandbox is marked and its instances are stopped, and the rest finishes in the
   * background (the reaper finishes what a stopped server left). Elsewhere it expires and unpins
   * first, so a partial failure is finished by the reaper, and deletes on the caller's path.
   */
  public void delete(String name) {
    access.existing(
        name,
        sandbox -> {
          deleted(name);
          Platform platform = router.of(sandbox);
          if (platform.sandboxes().retire(name)) {
            finishing.submit(platform, name);
            return null;
          }
          platform
              .sandboxes()
              .update(name, current -> current.withExpiresAt(access.now()).unpinned());
          deleteIgnoringNotFound(platform, name);
          return null;
        });
  }

  /** How long a retired sandbox may stay half-deleted before the reaper finishes it. */
  public static final Duration DELETION_GRACE = Duration.ofMinutes(2);

  /**
   * The reaper's part of background deletion: finishes every sandbox retired more than {@link
   * #DELETION_GRACE} ago (its server stopped, or its deletion failed); returns those finished.
   */
  public List<String> finishDeletions() {
    List<String> finished = new ArrayList<>();
    Instant before = access.now().minus(DELETION_GRACE);
    for (Platform platform : router.platforms()) {
      for (String name : platform.sandboxes().deleting(before)) {
        access.gated(
            name,
            () -> {
              deleteIgnoringNotFound(platform, name);
              return null;
            });
        finished.add(name);
      }
    }
    return finished;
  }

  private final BackgroundDeletions finishing = new BackgroundDeletions();

  /**
   * Waits up to {@code limit} for the deletions this service finishes in the background (a server
   * shutting down, a test about to look at Incus); true when none is left.
   */
  public boolean awaitDeletions(Duration limit) {
    return finishing.await(limit);
  }

  /**
   * The reaper's deletion: under the gate the sandbox is read again, and only deleted when it is
   * still there, unpinned and expired.
   */
  public ReapOutcome reap(String name) {
    return access.gated(
        name,
        () -> {
          Optional<Sandbox> current = router.find(name);
          if (current.isEmpty()) {
            return ReapOutcome.GONE;
          }
          if (current.get().pinned()) {
            return ReapOutcome.PINNED;
          }
          if (current.get().isLive(access.now())) {
            return ReapOutcome.LIVE;
          }
          deleted(name);
          deleteIgnoringNotFound(router.of(current.get()), name);
          return ReapOutcome.DELETED;
        });
  }

  private static void deleteIgnoringNotFound(Platform platform, String name) {
    try {
      platform.sandboxes().delete(name);
    } catch (BackendException e) {
      if (!e.isNotFound()) {
        throw e;
      }
    }
  }

  /** What {@link #reap} found under the gate. */
  public enum ReapOutcome {
    DELETED,
    GONE,
    PINNED,
    LIVE
  }

  /**
   * Every sandbox of the platforms that answer, for the reaper's scan; one that does not is logged
   * and scanned again next time.
   */
  public List<Sandbox> all() {
    return router.listReachable(
        (platform, e) ->
            System.getLogger(SandboxService.class.getName())
                .log(
                    System.Logger.Level.WARNING,
                    "reaper scan skipped platform=" + platform + " err=" + e.getMessage()));
  }

  public Instant now() {
    return access.now();
  }
}
