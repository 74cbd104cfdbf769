package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.ExecRequest;
import dev.agentcompute.capabilities.model.ExecResult;
import dev.agentcompute.capabilities.model.Impairment;
import dev.agentcompute.capabilities.model.Names;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.platform.PlatformRouter;
import java.util.Locale;
import java.util.Optional;

/**
 * net.impair (docs/reference/capabilities.md#netimpair): Linux {@code tc netem} on a NIC of a
 * running Linux guest, run as a shell script inside it. No gate and no liveness check; only {@code
 * Running} counts (not {@code Ready}).
 */
public final class ImpairmentService {
  private final SandboxAccess access;
  private final PlatformRouter router;
  private final InstanceService instances;

  public ImpairmentService(SandboxAccess access, InstanceService instances) {
    this.access = access;
    this.router = access.router();
    this.instances = instances;
  }

  /** The values of one call; {@code clear} ignores the others. */
  public record Request(
      long latencyMs, long jitterMs, double lossPercent, long rateMbit, boolean clear) {}

  /** Applies the impairment, or clears the NIC's netem; checks run in the original's order. */
  public void impair(String sandboxName, String instanceName, String nicName, Request request) {
    Sandbox sandbox = access.require(sandboxName);
    if (router.of(sandbox).networks().isEmpty()) {
      throw Errors.unsupportedOn(sandbox.platform());
    }
    Names.require(instanceName, nicName);
    Impairment impairment =
        request.clear()
            ? null
            : Impairment.of(
                request.latencyMs(), request.jitterMs(), request.lossPercent(), request.rateMbit());
    SandboxInstance instance = instances.require(sandbox, instanceName);
    if (!instance.status().equals("Running")) {
      throw Errors.instanceNotRunning(instanceName, sandboxName);
    }
    SandboxInstance.Nic nic =
        instance.nics().stream()
            .filter(n -> n.name().equals(nicName))
            .findFirst()
            .orElseThrow(() -> Errors.nicNotFound(nicName, instanceName, sandboxName));
    String os = instance.os().toLowerCase(Locale.ROOT);
    if (os.startsWith("windows") || os.equals("darwin") || os.equals("macos")) {
      throw Errors.of("net.impair is not supported on %s guests", instance.os());
    }
    ExecResult uname = run(sandbox, instanceName, "uname -s");
    if (uname.exit_code() != 0 || !uname.stdout().trim().equalsIgnoreCase("Linux")) {
      throw Errors.of("net.impair is not supported on non-Linux guests");
    }
    String iface = guestInterface(sandbox, instanceName, nic);
    if (!Names.matchesGrammar(iface)) {
      throw Errors.of("unsupported guest NIC name \"%s\"", iface);
    }
    ExecResult result =
        run(
            sandbox,
            instanceName,
            impairment == null ? Impairment.clearScript(iface) : impairment.applyScript(iface));
    if (result.exit_code() != 0) {
      String detail = result.stderr().trim();
      throw detail.isEmpty()
          ? Errors.of("impair failed on nic \"%s\" of instance \"%s\"", nicName, instanceName)
          : Errors.of(
              "impair failed on nic \"%s\" of instance \"%s\": %s", nicName, instanceName, detail);
    }
  }

  /** The guest's interface name for a NIC, matched by MAC (VM interface names may differ). */
  private String guestInterface(Sandbox sandbox, String instance, SandboxInstance.Nic nic) {
    if (nic.mac().isEmpty()) {
      return nic.name();
    }
    ExecResult found =
        run(
            sandbox,
            instance,
            "for i in /sys/class/net/*; do [ \"$(cat $i/address)\" = \""
                + nic.mac().toLowerCase(Locale.ROOT)
                + "\" ] && basename $i; done; true");
    String name = found.stdout().trim();
    return name.isEmpty() || name.contains("\n") ? nic.name() : name;
  }

  private ExecResult run(Sandbox sandbox, String instance, String script) {
    return router
        .instances(sandbox)
        .exec(sandbox, instance, ExecRequest.shell(script).withStdin(Optional.of("")));
  }
}
