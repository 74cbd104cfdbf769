package dev.agentcompute.capabilities.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * instance.exec on a catalogue image with {@code os: windows} (the busybox-desktop rootfs, whose
 * fake powershell.exe decodes and runs the wrapper's command): the exact argv Incus receives,
 * recorded by the relay in front of incusd's socket, the exit code passed through, and the user
 * rule.
 */
class WindowsExecIT {
  private static DesktopHarness h;
  private static String sb;

  @BeforeAll
  static void start() throws Exception {
    h = DesktopHarness.start();
    sb = IncusHarness.uniqueName("itwin");
    h.run(
        """
        def main():
            sandbox.create(name="%s")
            return instance.create(sandbox="%s", name="win", image="fake-windows")
        """,
        sb, sb);
  }

  @AfterAll
  static void stop() throws Exception {
    if (h != null) {
      h.deleteSandbox(sb);
      h.close();
    }
  }

  /** The spec's script (§2.10), written out here rather than taken from the code under test. */
  private static List<String> expectedArgv(String command) {
    String script =
        "$p=[System.Diagnostics.ProcessStartInfo]::new();$p.FileName='cmd.exe';"
            + "$p.Arguments='/d /s /c \"'+'"
            + command.replace("'", "''")
            + "'+'\"';$p.UseShellExecute=$false;$child=[System.Diagnostics.Process]::Start($p);"
            + "$child.WaitForExit();exit $child.ExitCode";
    return List.of(
        "powershell.exe",
        "-NoLogo",
        "-NoProfile",
        "-NonInteractive",
        "-EncodedCommand",
        Base64.getEncoder().encodeToString(script.getBytes(StandardCharsets.UTF_16LE)));
  }

  @Test
  @SuppressWarnings("unchecked")
  void incusReceivesThePowerShellWrapperAndTheExitCodeComesBack() throws Exception {
    String command = "echo 'it  works' && exit 3";
    Map<String, Object> r =
        (Map<String, Object>)
            h.run(
                """
                def main():
                    return instance.exec(sandbox="%s", name="win", command="echo 'it  works' && exit 3")
                """,
                sb);
    assertThat(r).containsEntry("exit_code", 3L).containsEntry("stdout", "it  works\n");
    List<OvnFaultRelay.Request> execs = h.relay.seen(q -> q.is("POST", "/1.0/instances/win/exec"));
    assertThat(execs).isNotEmpty();
    JsonNode body = JsonMapper.builder().build().readTree(execs.getLast().bodyText());
    List<String> argv = new java.util.ArrayList<>();
    body.path("command").forEach(a -> argv.add(a.asString()));
    assertThat(argv).isEqualTo(expectedArgv(command));
    assertThat(body.has("user")).as("no user is sent for Windows guests").isFalse();
  }

  /** The PowerShell scripts of every exec Incus received for {@code win} since {@code from}. */
  private static List<String> scriptsSince(int from) {
    List<String> scripts = new java.util.ArrayList<>();
    List<OvnFaultRelay.Request> execs = h.relay.seen(q -> q.is("POST", "/1.0/instances/win/exec"));
    for (OvnFaultRelay.Request exec : execs.subList(from, execs.size())) {
      JsonNode command = JsonMapper.builder().build().readTree(exec.bodyText()).path("command");
      assertThat(command.get(0).asString()).isEqualTo("powershell.exe");
      assertThat(command.get(4).asString()).isEqualTo("-EncodedCommand");
      scripts.add(
          new String(
              Base64.getDecoder().decode(command.get(5).asString()), StandardCharsets.UTF_16LE));
    }
    return scripts;
  }

  @Test
  @SuppressWarnings("unchecked")
  void afterARestartEachNicGetsItsNetworksMtuAndLicensingIsActivatedOnANatNetwork()
      throws Exception {
    int before = h.relay.seen(q -> q.is("POST", "/1.0/instances/win/exec")).size();
    Map<String, Object> got =
        (Map<String, Object>)
            h.run(
                """
                def main():
                    instance.restart(sandbox="%s", name="win")
                    return instance.get(sandbox="%s", name="win")
                """,
                sb, sb);
    String mac = (String) ((List<Map<String, Object>>) got.get("nics")).getFirst().get("mac");
    assertThat(mac).matches("([0-9a-f]{2}:){5}[0-9a-f]{2}");
    assertThat(scriptsSince(before))
        .containsExactly(
            "$a=Get-NetAdapter | Where-Object { $_.MacAddress -eq '"
                + mac.toUpperCase(java.util.Locale.ROOT).replace(':', '-')
                + "' }; if ($a) { Set-NetIPInterface -InterfaceIndex $a.ifIndex -AddressFamily"
                + " IPv4 -NlMtuBytes 1500 }",
            "cscript.exe //B //Nologo \"$env:SystemRoot\\System32\\slmgr.vbs\" /ato");
  }

  /**
   * A Windows VM's create request (spec §3.4): Secure Boot, a TPM, the agent configuration disk and
   * {@code image.os} "Windows". No KVM here, so Incus refuses to build it; the request it received
   * is recorded by the relay, and the failed create leaves no instance.
   */
  @Test
  void aWindowsVmIsCreatedWithSecureBootATpmAndTheAgentDisk() throws Exception {
    String failure =
        h.failure(
            """
            def main():
                return instance.create(sandbox="%s", name="winvm", image="fake-windows-vm")
            """,
            sb);
    assertThat(failure).startsWith("capability failed");
    List<OvnFaultRelay.Request> creates =
        h.relay.seen(
            q -> q.is("POST", "/1.0/instances") && q.bodyText().contains("\"name\":\"winvm\""));
    assertThat(creates).isNotEmpty();
    JsonNode body = JsonMapper.builder().build().readTree(creates.getLast().bodyText());
    assertThat(body.path("type").asString()).isEqualTo("virtual-machine");
    assertThat(body.path("config").path("security.secureboot").asString()).isEqualTo("true");
    assertThat(body.path("config").path("image.os").asString()).isEqualTo("Windows");
    assertThat(body.path("config").path("limits.cpu").asString()).isEqualTo("2");
    assertThat(body.path("config").path("limits.memory").asString()).isEqualTo("4096MiB");
    JsonNode devices = body.path("devices");
    assertThat(devices.path("agent").path("type").asString()).isEqualTo("disk");
    assertThat(devices.path("agent").path("source").asString()).isEqualTo("agent:config");
    assertThat(devices.path("tpm").path("type").asString()).isEqualTo("tpm");
    assertThat(devices.path("root").path("size").asString()).isEqualTo("40GiB");
    assertThat(devices.path("eth0").path("name").asString()).isEqualTo("eth0");
    assertThat(
            h.run(
                """
                def main():
                    return [i["name"] for i in instance.list(sandbox="%s")["items"]]
                """,
                sb))
        .isEqualTo(List.of("win"));
  }

  @Test
  void aUserIsRefusedOnWindowsWhateverItIs() {
    for (String user : List.of("root", "1000", "bob")) {
      assertThat(
              h.failure(
                  """
                  def main():
                      return instance.exec(sandbox="%s", name="win", command="echo hi", user="%s")
                  """,
                  sb, user))
          .isEqualTo(
              "capability failed: Windows exec uses the Incus agent service identity; user is"
                  + " unsupported");
    }
  }

  @Test
  void desktopCallsOnWindowsAreNotAvailableYet() {
    assertThat(
            h.failure(
                """
                def main():
                    return desktop.screenshot(sandbox="%s", instance="win")
                """,
                sb))
        .isEqualTo("capability failed: desktop.* on Windows guests is not available yet");
  }
}
