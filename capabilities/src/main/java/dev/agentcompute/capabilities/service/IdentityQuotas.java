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
 * together, counted from the platforms themselves (nothing to drift), and checked under the
 * identity's gate so that two calls in two of its sandboxes cannot both take its last room. The
 * sandbox's owner is charged, whoever makes the call.
 */
final class IdentityQuotas {
  private static final System.Logger LOG = System.getLogger(IdentityQuotas.class.getName());

  private final SandboxAccess access;
  private final QuotaChecks checks;

  IdentityQuotas(SandboxAccess access, QuotaChecks checks) {
    this.access = access;
    this.checks = checks;
  }

  /** Runs {@code action} (which adds one instance to {@code target}) if its owner has room. */
  <T> T withInstanceRoom(Sandbox target, Supplier<T> action) {
    String owner = target.subject();
    return access.forIdentity(
        owner,
        () -> {
          long held = 0;
          for (Sandbox s : liveSandboxesOf(owner)) {
            held += access.router().instances(s).count(s);
          }
          checks.identityInstances(owner, held);
          return action.get();
        });
  }

  /** Runs {@code action} (one more {@code net.create} network) if the owner has room. */
  <T> T withNetworkRoom(Sandbox target, Supplier<T> action) {
    String owner = target.subject();
    return access.forIdentity(
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
          checks.identityNetworks(owner, held);
          return action.get();
        });
  }

  /** Runs {@code action} (one more forwarded port) if the owner has room. */
  <T> T withForwardRoom(Sandbox target, Supplier<T> action) {
    String owner = target.subject();
    return access.forIdentity(
        owner,
        () -> {
          long held = 0;
          for (Sandbox s : liveSandboxesOf(owner)) {
            var ovn = access.router().of(s).ovn();
            if (s.networkKind() == NetworkKind.OVN && ovn.isPresent()) {
              held += ovn.get().forwardedPorts(s);
            }
          }
          checks.identityForwards(owner, held);
          return action.get();
        });
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
