package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.model.ExecRequest;
import dev.agentcompute.capabilities.model.ExecResult;
import dev.agentcompute.capabilities.model.NicSettings;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.model.WindowsExec;
import dev.agentcompute.capabilities.platform.NetworkDriver;
import dev.agentcompute.capabilities.platform.PlatformRouter;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What a Windows guest needs after a start or restart
 * (docs/reference/capabilities.md#windows-guests), once its agent answers: each NIC's IPv4 MTU set
 * to its network's (Windows keeps 1500 on an OVN network, whose Geneve overhead leaves less), and
 * evaluation licensing activated when a NIC is on a NAT network (the only networks with a way out
 * to the activation service). Both run through the PowerShell wrapper; a failure is logged, not
 * raised: the instance did start.
 */
final class WindowsGuest {
  private static final Logger LOG = System.getLogger(WindowsGuest.class.getName());

  /** How long the agent may take to answer after a start. */
  static final Duration AGENT_BUDGET = Duration.ofMinutes(5);

  private static final Duration STEP_TIMEOUT = Duration.ofMinutes(2);

  static final String ACTIVATE =
      "cscript.exe //B //Nologo \"$env:SystemRoot\\System32\\slmgr.vbs\" /ato";

  private final PlatformRouter router;

  WindowsGuest(PlatformRouter router) {
    this.router = router;
  }

  /** The PowerShell that sets the IPv4 MTU of the adapter with {@code mac}. */
  static String mtuScript(String mac, int mtu) {
    String windowsMac = mac.toUpperCase(Locale.ROOT).replace(':', '-');
    return "$a=Get-NetAdapter | Where-Object { $_.MacAddress -eq '"
        + windowsMac
        + "' }; if ($a) { Set-NetIPInterface -InterfaceIndex $a.ifIndex -AddressFamily IPv4"
        + " -NlMtuBytes "
        + mtu
        + " }";
  }

  void prepare(Sandbox sandbox, SandboxInstance instance) {
    Optional<NetworkDriver> networks = router.of(sandbox).networks();
    if (networks.isEmpty()) {
      return;
    }
    boolean nat = false;
    for (SandboxInstance.Nic nic : instance.nics()) {
      Optional<NicSettings> settings = networks.get().settings(sandbox, nic.network());
      if (settings.isEmpty() || nic.mac().isEmpty()) {
        continue;
      }
      nat |= settings.get().nat();
      run(
          sandbox,
          instance,
          "set MTU of " + nic.name(),
          mtuScript(nic.mac(), settings.get().mtu()));
    }
    if (nat) {
      run(sandbox, instance, "activate licensing", ACTIVATE);
    }
  }

  private void run(Sandbox sandbox, SandboxInstance instance, String what, String script) {
    ExecResult result =
        router
            .instances(sandbox)
            .exec(
                sandbox,
                instance.name(),
                ExecRequest.of(WindowsExec.powerShell(script))
                    .withStdin(Optional.of(""))
                    .withTimeout(Optional.of(STEP_TIMEOUT)));
    if (result.exit_code() != 0) {
      LOG.log(
          Level.WARNING,
          () ->
              "windows guest step failed sandbox="
                  + sandbox.name()
                  + " instance="
                  + instance.name()
                  + " step="
                  + what
                  + " exit="
                  + result.exit_code()
                  + " stderr="
                  + List.of(result.stderr().strip().split("\n", 2)).getFirst());
    }
  }
}
