package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.model.Names;
import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxNetwork;
import dev.agentcompute.capabilities.platform.Platform;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

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

  private final SandboxAccess access;
  private final QuotaChecks checks;

  /** Additions in flight per kind and owner: reserved under the gate, released when done. */
  private final java.util.Map<String, java.util.concurrent.atomic.AtomicLong> inFlight =
      new java.util.concurrent.ConcurrentHashMap<>();

  IdentityQuotas(SandboxAccess access, QuotaChecks checks) {
    this.access = access;
    this.checks = checks;
  }

  /** Runs {@code action} (which adds one instance to {@code target}) if its owner has room. */
  <T> T withInstanceRoom(Sandbox target, Supplier<T> action) {
    String owner = target.subject();
    return reserved(
        owner,
        () -> {
          long held = 0;
          for (Sandbox s : liveSandboxesOf(owner)) {
            held += access.router().instances(s).count(s);
          }
          checks.identityInstances(owner, held + inFlight("instances", owner).get());
          inFlight("instances", owner).incrementAndGet();
          return null;
        },
        "instances",
        action);
  }

  /** Runs {@code action} (one more {@code net.create} network) if the owner has room. */
  <T> T withNetworkRoom(Sandbox target, Supplier<T> action) {
    String owner = target.subject();
    return reserved(
        owner,
        () -> {
          long held = 0;
          for (Sandbox s : liveSandboxesOf(owner)) {
            Platform platform = access.router().of(s);
            if (platform.networks().isPresent()) {
              List<SandboxNetwork> networks = platform.networks().get().list(s);
              held += networks.stream().filter(n -> !n.name().equals(Names.DEFAULT)).count();
            }
          }
          checks.identityNetworks(owner, held + inFlight("networks", owner).get());
          inFlight("networks", owner).incrementAndGet();
          return null;
        },
        "networks",
        action);
  }

  /** Runs {@code action} (one more forwarded port) if the owner has room. */
  <T> T withForwardRoom(Sandbox target, Supplier<T> action) {
    String owner = target.subject();
    return reserved(
        owner,
        () -> {
          long held = 0;
          for (Sandbox s : liveSandboxesOf(owner)) {
            var ovn = access.router().of(s).ovn();
            if (s.networkKind() == NetworkKind.OVN && ovn.isPresent()) {
              held += ovn.get().forwardedPorts(s);
            }
          }
          checks.identityForwards(owner, held + inFlight("forwards", owner).get());
          inFlight("forwards", owner).incrementAndGet();
          return null;
        },
        "forwards",
        action);
  }

  /**
   * Counts, checks and reserves under the owner's gate ({@code reserve}), then runs {@code action}
   * outside it and releases the reservation once the action has ended (its addition is then counted
   * by the platform, or it failed).
   */
  private <T> T reserved(String owner, Supplier<Void> reserve, String kind, Supplier<T> action) {
    access.forIdentity(owner, reserve);
    try {
      return action.get();
    } finally {
      inFlight(kind, owner).decrementAndGet();
    }
  }

  private java.util.concurrent.atomic.AtomicLong inFlight(String kind, String owner) {
    return inFlight.computeIfAbsent(
        kind + "\u0000" + owner, k -> new java.util.concurrent.atomic.AtomicLong());
  }

  private List<Sandbox> liveSandboxesOf(String owner) {
    Instant now = access.now();
    return access
        .router()
        .listReachable(
            (platform, e) ->
                LOG.log(
                    System.Logger.Level.WARNING,
                    "identity quota skipped platform=" + platform + " err=" + e.getMessage()))
        .stream()
        .filter(s -> s.subject().equals(owner) && s.isLive(now))
        .toList();
  }
}
