package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.config.Isolation;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.Names;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.platform.PlatformRouter;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The sequence every sandbox operation starts with, in one place: check the sandbox name, look the
 * sandbox up (on every platform, Incus first), and for mutations take its gate and check it is
 * still live. Long waits (boot, exec, file IO) run outside the gate: callers keep them out of the
 * functions they pass to {@link #live} and {@link #existing}.
 */
public final class SandboxAccess {
  /**
   * The identity whose capability call is running ({@link
   * dev.agentcompute.capabilities.adapter.CapabilityDefinition#invoke} binds it). Unbound for the
   * server's own work (the reaper), which reaches every sandbox.
   */
  public static final ScopedValue<String> CALLER = ScopedValue.newInstance();

  private final PlatformRouter router;
  private final Clock clock;
  private final Isolation isolation;
  private final SandboxGate gate = new SandboxGate();
  // One gate per identity, taken inside a sandbox's gate (never the other way round): two creations
  // in two sandboxes of one owner cannot both take the owner's last room.
  private final SandboxGate identities = new SandboxGate();

  public SandboxAccess(PlatformRouter router, Clock clock) {
    this(router, clock, Isolation.shared());
  }

  public SandboxAccess(PlatformRouter router, Clock clock, Isolation isolation) {
    this.router = router;
    this.clock = clock;
    this.isolation = isolation;
  }

  public PlatformRouter router() {
    return router;
  }

  public Instant now() {
    return clock.instant();
  }

  /** A sandbox that must exist (no gate, no liveness check: reads and long waits). */
  public Sandbox require(String sandbox) {
    Names.require(sandbox);
    return find(sandbox).orElseThrow(() -> Errors.sandboxNotFound(sandbox));
  }

  /**
   * The sandbox of that name, on whichever platform has it. With owner isolation, another
   * identity's sandbox is not found: every capability then answers as for a missing one, and no
   * answer tells an agent that the name is taken by someone else.
   */
  public Optional<Sandbox> find(String sandbox) {
    return router.find(sandbox).filter(this::reachable);
  }

  /** Whether the running call's identity (if any) may reach {@code sandbox}. */
  public boolean reachable(Sandbox sandbox) {
    return !CALLER.isBound() || isolation.mayReach(CALLER.get(), sandbox.subject());
  }

  /** Runs {@code action} under the sandbox's gate on the sandbox, which must exist and be live. */
  public <T> T live(String sandbox, Function<Sandbox, T> action) {
    Names.require(sandbox);
    return gate.run(sandbox, () -> action.apply(requireLive(sandbox)));
  }

  /** As {@link #live}, for mutations without a result. */
  public void runLive(String sandbox, Consumer<Sandbox> action) {
    live(
        sandbox,
        s -> {
          action.accept(s);
          return null;
        });
  }

  /**
   * Runs {@code action} under the sandbox's gate on the sandbox, which must exist but may have
   * expired (deletions).
   */
  public <T> T existing(String sandbox, Function<Sandbox, T> action) {
    Names.require(sandbox);
    return gate.run(
        sandbox,
        () -> action.apply(find(sandbox).orElseThrow(() -> Errors.sandboxNotFound(sandbox))));
  }

  /**
   * Runs {@code action} under the gate of {@code sandbox} without any lookup (creation, reaping).
   */
  public <T> T gated(String sandbox, Supplier<T> action) {
    return gate.run(sandbox, action);
  }

  /** Runs {@code action} under the gate of the identity {@code subject} (its per-identity caps). */
  public <T> T forIdentity(String subject, Supplier<T> action) {
    return identities.run(subject, action);
  }

  private Sandbox requireLive(String sandbox) {
    Sandbox found = find(sandbox).orElseThrow(() -> Errors.sandboxNotFound(sandbox));
    if (!found.isLive(now())) {
      throw Errors.sandboxExpired(sandbox);
    }
    return found;
  }
}
