package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.model.Names;
import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxNetwork;
import dev.agentcompute.capabilities.platform.InstanceDriver;
import dev.agentcompute.capabilities.platform.Platform;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ObjLongConsumer;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * The caps per identity ({@code sandbox.identity_limits.*}): what an identity's live sandboxes hold
 * together, counted from the platforms themselves (nothing to drift), plus what its calls in flight
 * are adding. The count and the reservation happen under the identity's gate, so that two calls in
 * two of its sandboxes cannot both take its last room; the creation itself runs outside it, so an
 * identity's creations still run side by side. An addition the platform lists before its call has
 * ended counts twice for that moment: near the cap the check errs on the side of refusing, never of
 * letting one more through. The sandbox's owner is charged, whoever makes the call.
 */
final class IdentityQuotas {
  private static final System.Logger LOG = System.getLogger(IdentityQuotas.class.getName());

  /** The reader named when the quota checks skip a platform that does not answer. */
  static final String QUOTA = "identity quota";

  private final SandboxAccess access;
  private final QuotaChecks checks;

  /** Additions in flight per kind and owner: reserved under the gate, released when done. */
  private final Map<String, AtomicLong> inFlight = new ConcurrentHashMap<>();

  IdentityQuotas(SandboxAccess access, QuotaChecks checks) {
    this.access = access;
    this.checks = checks;
  }

  /**
   * Runs {@code action} (which adds one instance to {@code target}) if its owner has room. The
   * owner's sandboxes are counted per platform in one go ({@code InstanceDriver.count(List)}: one
   * request on Incus), not one request per sandbox.
   */
  <T> T withInstanceRoom(Sandbox target, Supplier<T> action) {
    return withRoom(
        target,
        "instances",
        owner -> usage(owner, QUOTA).instances(),
        checks::identityInstances,
        action);
  }

  /**
   * What {@code owner}'s live sandboxes hold now: how many, and their instances together. The
   * instance quota counts with it, and sandbox.limits reports it. A platform that does not answer
   * is left out and logged as skipped by {@code reader}.
   */
  SandboxService.Usage usage(String owner, String reader) {
    List<Sandbox> own = liveSandboxesOf(owner, reader);
    return new SandboxService.Usage(own.size(), instancesIn(own));
  }

  /** Runs {@code action} (one more {@code net.create} network) if the owner has room. */
  <T> T withNetworkRoom(Sandbox target, Supplier<T> action) {
    return withRoom(
        target, "networks", each(this::createdNetworks), checks::identityNetworks, action);
  }

  /** Runs {@code action} (one more forwarded port) if the owner has room. */
  <T> T withForwardRoom(Sandbox target, Supplier<T> action) {
    return withRoom(
        target, "forwards", each(this::forwardedPorts), checks::identityForwards, action);
  }

  /** What an owner's live sandboxes hold together, counted one sandbox at a time. */
  private ToLongFunction<String> each(ToLongFunction<Sandbox> heldIn) {
    return owner -> liveSandboxesOf(owner, QUOTA).stream().mapToLong(heldIn).sum();
  }

  /** The instances of {@code sandboxes}, one count per platform driver. */
  private long instancesIn(List<Sandbox> sandboxes) {
    Map<InstanceDriver, List<Sandbox>> byDriver = new LinkedHashMap<>();
    for (Sandbox s : sandboxes) {
      byDriver.computeIfAbsent(access.router().instances(s), d -> new ArrayList<>()).add(s);
    }
    long held = 0;
    for (Map.Entry<InstanceDriver, List<Sandbox>> group : byDriver.entrySet()) {
      for (int count : group.getKey().count(group.getValue()).values()) {
        held += count;
      }
    }
    return held;
  }

  /**
   * Under the owner's gate: counts what the owner's live sandboxes hold ({@code heldBy}) plus the
   * additions in flight, checks it, and reserves one. Then runs {@code action} outside the gate and
   * releases the reservation once it has ended (its addition is then counted by the platform, or it
   * failed).
   */
  private <T> T withRoom(
      Sandbox target,
      String kind,
      ToLongFunction<String> heldBy,
      ObjLongConsumer<String> check,
      Supplier<T> action) {
    String owner = target.subject();
    AtomicLong pending = inFlight.computeIfAbsent(kind + "\u0000" + owner, k -> new AtomicLong());
    access.forIdentity(
        owner,
        () -> {
          long held = heldBy.applyAsLong(owner);
          check.accept(owner, held + pending.get());
          pending.incrementAndGet();
          return null;
        });
    try {
      return action.get();
    } finally {
      pending.decrementAndGet();
    }
  }

  /** The networks {@code net.create} made in a sandbox (its default network is not counted). */
  private long createdNetworks(Sandbox s) {
    Platform platform = access.router().of(s);
    if (platform.networks().isEmpty()) {
      return 0;
    }
    List<SandboxNetwork> networks = platform.networks().get().list(s);
    return networks.stream().filter(n -> !n.name().equals(Names.DEFAULT)).count();
  }

  private long forwardedPorts(Sandbox s) {
    var ovn = access.router().of(s).ovn();
    return s.networkKind() == NetworkKind.OVN && ovn.isPresent() ? ovn.get().forwardedPorts(s) : 0;
  }

  /**
   * The sandboxes {@code owner} created that have not expired, over the platforms that answer; one
   * that does not is logged as skipped by {@code reader} (who was reading: the quota,
   * sandbox.limits).
   */
  List<Sandbox> liveSandboxesOf(String owner, String reader) {
    Instant now = access.now();
    return access
        .router()
        .listReachable(
            (platform, e) ->
                LOG.log(
                    System.Logger.Level.WARNING,
                    reader + " skipped platform=" + platform + " err=" + e.getMessage()))
        .stream()
        .filter(s -> s.subject().equals(owner) && s.isLive(now))
        .toList();
  }
}
