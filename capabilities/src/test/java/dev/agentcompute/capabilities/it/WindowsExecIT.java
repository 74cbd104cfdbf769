package dev.agentcompute.capabilities.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.screenshots.ScreenshotStore;
import java.io.ByteArrayInputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A catalogue image with {@code os: windows} (the busybox-desktop rootfs with its test doubles):
 * instance.exec through the PowerShell wrapper (the fake powershell.exe decodes and runs the
 * wrapper's command), the post-start steps, a Windows VM's create request, and desktop.* through
 * the Driver proxy kept attached over MCP (the fake cua-driver-proxy.exe), each checked against the
 * exact requests Incus receives, recorded by the relay in front of incusd's socket.
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

  /**
   * The wrapper's script (docs/reference/capabilities.md#windows-guests), written out here rather
   * than taken from the code under test.
   */
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
   * A Windows VM's create request (docs/reference/capabilities.md#windows-guests): Secure Boot, a
   * TPM, the agent configuration disk and {@code image.os} "Windows". No KVM here, so Incus refuses
   * to build it; the request it received is recorded by the relay, and the failed create leaves no
   * instance.
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

  // ---- desktop.* through the Driver proxy (docs/reference/capabilities.md#desktops) -------------

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String PROXY =
      "C:\\ProgramData\\agentcompute\\cua-driver\\cua-driver-proxy.exe";

  @AfterEach
  void noModesLeft() throws Exception {
    shell("rm -f /etc/cua-fake/*");
  }

  /** A Starlark string literal of {@code text}. */
  private static String quoted(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  /** instance.exec on win (the wrapper runs it with sh in this rootfs); its stdout. */
  @SuppressWarnings("unchecked")
  private static String shell(String command) throws Exception {
    Map<String, Object> r =
        (Map<String, Object>)
            h.run(
                """
                def main():
                    return instance.exec(sandbox="%s", name="win", command=%s)
                """,
                sb, quoted(command));
    return (String) r.get("stdout");
  }

  private static void mode(String name) throws Exception {
    shell("touch /etc/cua-fake/" + name);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> desktop(String capability, String args) throws Exception {
    return (Map<String, Object>)
        h.run(
            """
            def main():
                return %s(sandbox="%s", instance="win"%s)
            """,
            capability, sb, args.isEmpty() ? "" : ", " + args);
  }

  private static String desktopFailure(String capability, String args) {
    return h.failure(
        """
        def main():
            return %s(sandbox="%s", instance="win"%s)
        """,
        capability, sb, args.isEmpty() ? "" : ", " + args);
  }

  private static Map<String, Object> call(String tool, String args) throws Exception {
    return desktop("desktop.call", "tool=" + quoted(tool) + ", args=" + quoted(args));
  }

  /** The bodies of the exec requests Incus received for win, oldest first. */
  private static List<JsonNode> execBodies() {
    return h.relay.seen(q -> q.is("POST", "/1.0/instances/win/exec")).stream()
        .map(q -> JSON.readTree(q.bodyText()))
        .toList();
  }

  /** Those that started the Driver proxy. */
  private static List<JsonNode> proxyExecs() {
    return execBodies().stream()
        .filter(b -> b.path("command").path(0).asString("").equals(PROXY))
        .toList();
  }

  /** The {@code path} of every file request {@code method} Incus received for win. */
  private static List<String> filePaths(String method) {
    return h.relay.seen(q -> q.is(method, "/1.0/instances/win/files")).stream()
        .map(
            q ->
                java.util.Arrays.stream(
                        q.target().substring(q.target().indexOf('?') + 1).split("&"))
                    .filter(p -> p.startsWith("path="))
                    .map(p -> URLDecoder.decode(p.substring(5), StandardCharsets.UTF_8))
                    .findFirst()
                    .orElse(""))
        .toList();
  }

  /** The arguments the fake proxy received for each call of {@code tool}, oldest first. */
  private static List<String> loggedCalls(String tool) throws Exception {
    return shell("cat /tmp/cua-proxy-fake.log")
        .lines()
        .filter(l -> l.startsWith("call " + tool + " "))
        .map(l -> l.substring(("call " + tool + " ").length()))
        .toList();
  }

  /** The Windows path a call's arguments named for its screenshot. */
  private static String screenshotPath(String arguments) {
    return JSON.readTree(arguments).path("screenshot_out_file").asString();
  }

  /** Kills the running proxy, as a crash would; the stream's end is noticed asynchronously. */
  private static void killProxy() throws Exception {
    shell("ps -o pid,args | awk '/cua-driver-prox[y]/ {print $1}' | xargs -r kill -9");
  }

  /** Polls desktop.info until {@code done} accepts its answer or its failure text. */
  private static void awaitInfo(java.util.function.Predicate<Object> done) throws Exception {
    long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    Object last = null;
    while (System.nanoTime() < end) {
      try {
        last = desktop("desktop.info", "");
      } catch (dev.agentcompute.codemode.CodeModeException e) {
        last = e.clientText();
      }
      if (done.test(last)) {
        return;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("desktop.info never got there; last answer: " + last);
  }

  @Test
  void desktopInfoIsTheProxysHandshakeAndItsReadinessProbe() throws Exception {
    assertThat(desktop("desktop.info", ""))
        .containsEntry("ready", true)
        .containsEntry("os", "windows")
        .containsEntry("driver_version", "0.21.0-fake")
        .containsEntry(
            "tools",
            List.of(
                "click",
                "get_desktop_state",
                "get_window_state",
                "list_apps",
                "list_windows",
                "press_key",
                "type_text"));
    assertThat(desktop("desktop.enable", "")).containsEntry("ready", true);
    assertThat(loggedCalls("list_windows")).last().isEqualTo("{}");
  }

  @Test
  void theProxyIsExecutedDirectlyInItsDirectoryAsTheAgentsIdentity() throws Exception {
    desktop("desktop.info", "");
    JsonNode body = proxyExecs().getLast();
    List<String> argv = new java.util.ArrayList<>();
    body.path("command").forEach(a -> argv.add(a.asString()));
    assertThat(argv).containsExactly(PROXY, "mcp", "--socket", "\\\\.\\pipe\\cua-driver");
    assertThat(body.path("cwd").asString()).isEqualTo("C:\\ProgramData\\agentcompute");
    assertThat(body.has("user")).as("no user: the Incus agent's identity").isFalse();
    assertThat(body.path("interactive").asBoolean(true)).isFalse();
    assertThat(body.path("wait-for-websocket").asBoolean(false)).isTrue();
    assertThat(body.path("environment").isEmpty()).isTrue();
    assertThat(shell("grep '^start' /tmp/cua-proxy-fake.log | tail -1").strip())
        .isEqualTo(
            "start uid=0 cwd=/C:\\ProgramData\\agentcompute argv=mcp --socket \\\\.\\pipe\\cua-driver");
  }

  @Test
  void callsOnTheInstanceShareOneProxyExecAndRunNothingElse() throws Exception {
    desktop("desktop.info", "");
    int execs = execBodies().size();
    int proxies = proxyExecs().size();
    call("list_apps", "{}");
    call("click", "{\"x\":1,\"y\":2}");
    call("get_desktop_state", "{}");
    desktop("desktop.screenshot", "");
    desktop("desktop.enable", "");
    assertThat(proxyExecs()).hasSize(proxies);
    assertThat(execBodies())
        .as("no PowerShell, no rm: files go through the file API")
        .hasSize(execs);
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          click     | {"x":3,"y":4} | true  | [OK] Clicked at (3, 4)
          click     | {}            | false | click requires x and y (or element_index with pid)
          list_apps | {}            | true  | structured content
          type_text | {}            | true  | typed 5 characters
          press_key | {}            | false | pressed the key
          nope      | {}            | false | Unknown tool: nope
          """)
  void callAnswersAreClassifiedAsTheOriginalDoes(
      String tool, String args, boolean ok, String summary) throws Exception {
    assertThat(call(tool, args)).containsEntry("ok", ok).containsEntry("summary", summary);
    assertThat(loggedCalls(tool).getLast()).startsWith(args.replaceFirst("}$", ""));
  }

  @Test
  void aStructuredAnswerIsItsJsonWithoutImagePayloads() throws Exception {
    mode("base64");
    assertThat(call("list_apps", "{}"))
        .containsEntry("ok", true)
        .containsEntry("summary", "structured content")
        .containsEntry(
            "result",
            "{\"apps\":[{\"name\":\"notepad.exe\",\"pid\":4242}],\"summary\":\"1 app running\"}");
  }

  @Test
  void aCallsScreenshotIsPublishedAndItsRandomFileReadBackAndRemoved() throws Exception {
    Map<String, Object> r = call("get_desktop_state", "{}");
    assertThat(r).containsEntry("ok", true);
    String url = (String) r.get("screenshot_url");
    assertThat(url).matches("http://127\\.0\\.0\\.1:8081/screenshots/[0-9a-f]{32}");
    ScreenshotStore.Screenshot stored =
        h.store.find(url.substring(url.lastIndexOf('/') + 1)).orElseThrow();
    assertThat(stored.width()).isEqualTo(64);
    assertThat(stored.sandbox()).isEqualTo(sb);
    String path = screenshotPath(loggedCalls("get_desktop_state").getLast());
    assertThat(path).matches("C:\\\\ProgramData\\\\agentcompute\\\\cua-[0-9a-f]{32}\\.png");
    assertThat(filePaths("GET")).contains(path);
    assertThat(filePaths("DELETE")).contains(path);
    assertThat(shell("ls / | grep -c '^C:.*cua-' || true").strip()).isEqualTo("0");
  }

  @Test
  void aCallThatWroteNoScreenshotHasNoUrlAndNothingToRemove() throws Exception {
    Map<String, Object> r = call("click", "{\"x\":1,\"y\":1}");
    assertThat(r).containsEntry("ok", true).doesNotContainKey("screenshot_url");
    String path = screenshotPath(loggedCalls("click").getLast());
    assertThat(filePaths("GET")).contains(path);
    assertThat(filePaths("DELETE")).doesNotContain(path);
  }

  @Test
  void aDesktopScreenshotIsScaledToTheDriversScreenWidth() throws Exception {
    Map<String, Object> shot = desktop("desktop.screenshot", "");
    assertThat(shot)
        .containsEntry("width", 64L)
        .containsEntry("height", 48L)
        .containsEntry("scale", 2.0);
    String url = (String) shot.get("url");
    byte[] png = h.store.find(url.substring(url.lastIndexOf('/') + 1)).orElseThrow().png();
    assertThat(ImageIO.read(new ByteArrayInputStream(png)).getWidth()).isEqualTo(64);
    assertThat(desktop("desktop.screenshot", "max_dimension=32"))
        .containsEntry("width", 32L)
        .containsEntry("height", 24L)
        .containsEntry("scale", 4.0);
    assertThat(loggedCalls("get_desktop_state").getLast()).startsWith("{\"screenshot_out_file\":");
  }

  @Test
  void aWindowScreenshotIsScaledToTheWindowsWidth() throws Exception {
    assertThat(desktop("desktop.screenshot", "pid=4242, window_id=7"))
        .containsEntry("width", 64L)
        .containsEntry("scale", 0.5);
    assertThat(loggedCalls("get_window_state").getLast())
        .startsWith("{\"pid\":4242,\"window_id\":7,\"include_accessibility_tree\":false,");
    desktop("desktop.screenshot", "pid=4242, window_id=7, max_dimension=32");
    assertThat(loggedCalls("get_window_state").getLast()).contains("\"max_dimension\":32");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "shot-fails, Error: capture failed: the desktop is locked",
    "no-width, Driver screenshot omitted its coordinate width",
    "no-png, Driver did not write a screenshot"
  })
  void aScreenshotTheDriverCouldNotTakeIsTheNamedError(String mode, String error) throws Exception {
    mode(mode);
    assertThat(desktopFailure("desktop.screenshot", "")).isEqualTo("capability failed: " + error);
  }

  @Test
  void aLostAnswerFailsTheCallIsNotRepeatedAndTheNextCallOpensANewStream() throws Exception {
    desktop("desktop.info", "");
    int proxies = proxyExecs().size();
    mode("drop-call");
    assertThat(desktopFailure("desktop.call", "tool=\"click\", args='{\"x\":5,\"y\":6}'"))
        .isEqualTo(
            "capability failed: the Driver's connection ended before it answered click; the call"
                + " may have taken effect: check before repeating it");
    assertThat(loggedCalls("click").stream().filter(a -> a.startsWith("{\"x\":5,\"y\":6,")))
        .as("the click reached the Driver once")
        .hasSize(1);
    assertThat(shell("grep -c '^dropped click' /tmp/cua-proxy-fake.log").strip()).isNotEqualTo("0");
    assertThat(proxyExecs()).as("the failure itself starts nothing").hasSize(proxies);
    assertThat(call("click", "{\"x\":7,\"y\":8}")).containsEntry("ok", true);
    assertThat(proxyExecs()).hasSize(proxies + 1);
    assertThat(loggedCalls("click").stream().filter(a -> a.startsWith("{\"x\":5,\"y\":6,")))
        .hasSize(1);
  }

  @Test
  void aProxyThatCannotStartIsADaemonThatIsNotRunning() throws Exception {
    desktop("desktop.info", "");
    mode("stopped");
    killProxy();
    awaitInfo(a -> a instanceof Map<?, ?> m && List.of().equals(m.get("tools")));
    assertThat(desktop("desktop.info", ""))
        .containsEntry("ready", false)
        .containsEntry("os", "windows")
        .containsEntry("driver_version", "")
        .containsEntry("tools", List.of());
    assertThat(desktop("desktop.enable", "")).containsEntry("ready", false);
    assertThat(desktopFailure("desktop.call", "tool=\"click\""))
        .isEqualTo("capability failed: Driver daemon is not running");
    assertThat(desktopFailure("desktop.screenshot", ""))
        .isEqualTo("capability failed: Driver daemon is not running");
    assertThat(shell("tail -1 /tmp/cua-proxy-fake.log"))
        .as("each attempt starts the proxy, which refuses")
        .startsWith("start ");
    shell("rm -f /etc/cua-fake/stopped");
    assertThat(desktop("desktop.info", "")).containsEntry("ready", true);
  }

  @Test
  void aHandshakeWithoutAVersionIsRefused() throws Exception {
    desktop("desktop.info", "");
    mode("no-version");
    killProxy();
    String refused = "capability failed: Driver MCP must include version and tools";
    awaitInfo(refused::equals);
    assertThat(desktopFailure("desktop.call", "tool=\"click\"")).isEqualTo(refused);
    assertThat(desktop("desktop.enable", "")).containsEntry("ready", false);
  }

  @Test
  void readinessIsTheListWindowsProbe() throws Exception {
    mode("no-desktop");
    assertThat(desktop("desktop.info", ""))
        .containsEntry("ready", false)
        .containsEntry("driver_version", "0.21.0-fake");
    assertThat(desktop("desktop.enable", "")).containsEntry("ready", false);
  }
}
