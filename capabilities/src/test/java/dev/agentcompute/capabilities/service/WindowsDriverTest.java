package dev.agentcompute.capabilities.service;

import static dev.agentcompute.capabilities.service.ScriptedProxy.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.model.AgentFacingException;
import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.CommandStream;
import dev.agentcompute.capabilities.model.ExecRequest;
import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.platform.Platform;
import dev.agentcompute.capabilities.platform.PlatformRouter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Windows Driver's sessions (docs/reference/capabilities.md#desktops) over a platform whose
 * attached commands are {@link ScriptedProxy}s: how the proxy is started, one stream per instance
 * reused by later calls, what happens when an answer is lost or a stream ends, the screenshot file
 * of each call, and the sessions ending with their sandbox and with the driver.
 */
class WindowsDriverTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G'};

  private final Attached platform = new Attached();
  private final WindowsDriver driver =
      new WindowsDriver(new PlatformRouter(List.of(platform.platform())));
  private final Sandbox s1 = sandbox("s1");
  private final Sandbox s2 = sandbox("s2");
  private final SandboxInstance win = instance("win");

  @AfterEach
  void close() {
    driver.close();
  }

  private static Sandbox sandbox(String name) {
    Instant now = Instant.parse("2026-12-01T00:00:00Z");
    return new Sandbox(
        name, "incus", now, now.plusSeconds(3600), "dev", false, "", null, NetworkKind.BRIDGE, "");
  }

  private static SandboxInstance instance(String name) {
    return new SandboxInstance(
        name,
        "container",
        "fake-windows",
        "Running",
        1,
        128,
        List.of(),
        false,
        List.of(),
        Map.of(),
        "",
        "windows",
        "");
  }

  private static ObjectNode args(String json) {
    return (ObjectNode) JSON.readTree(json);
  }

  private static final String OK_TEXT = "{\"content\":[{\"type\":\"text\",\"text\":\"[OK]\"}]}";

  /** Every call answers [OK]; a get_desktop_state call also writes its screenshot file. */
  private Function<JsonNode, String> answering() {
    return request -> {
      JsonNode arguments = request.path("params").path("arguments");
      if (request.path("params").path("name").asString().equals("get_desktop_state")) {
        platform.files.put(arguments.path("screenshot_out_file").asString(), PNG);
      }
      return ok(request, OK_TEXT);
    };
  }

  @Test
  void theProxyIsRunDirectlyInItsDirectoryAsTheAgentsIdentity() {
    platform.script = answering();
    assertThat(driver.handshake(s1, win))
        .contains(
            new WindowsDriver.Handshake(
                "0.21.0-fake", List.of("click", "list_windows", "get_desktop_state")));
    ExecRequest started = platform.started.getFirst();
    assertThat(started.argv())
        .containsExactly(
            "C:\\ProgramData\\agentcompute\\cua-driver\\cua-driver-proxy.exe",
            "mcp",
            "--socket",
            "\\\\.\\pipe\\cua-driver");
    assertThat(started.cwd()).contains("C:\\ProgramData\\agentcompute");
    assertThat(started.user()).isEmpty();
    assertThat(started.env()).isEmpty();
  }

  @Test
  void callsOnAnInstanceShareOneStreamAndEachInstanceHasItsOwn() {
    platform.script = answering();
    driver.handshake(s1, win);
    driver.call(s1, win, "click", args("{\"x\":1,\"y\":2}"));
    driver.call(s1, win, "click", args("{\"x\":3,\"y\":4}"));
    assertThat(driver.ready(s1, win)).isTrue();
    assertThat(platform.proxies).hasSize(1);
    driver.call(s1, instance("other"), "click", args("{}"));
    driver.call(s2, win, "click", args("{}"));
    assertThat(platform.proxies).hasSize(3);
    assertThat(platform.proxies.getFirst().calls("click")).hasSize(2);
  }

  @Test
  void eachCallNamesARandomScreenshotFileThatIsReadBackAndRemoved() {
    platform.script = answering();
    WindowsDriver.Reply shot = driver.call(s1, win, "get_desktop_state", args("{}"));
    WindowsDriver.Reply again = driver.call(s1, win, "get_desktop_state", args("{}"));
    List<String> paths =
        platform.proxies.getFirst().calls("get_desktop_state").stream()
            .map(c -> c.path("params").path("arguments").path("screenshot_out_file").asString())
            .toList();
    assertThat(paths)
        .hasSize(2)
        .allMatch(p -> p.matches("C:\\\\ProgramData\\\\agentcompute\\\\cua-[0-9a-f]{32}\\.png"))
        .doesNotHaveDuplicates();
    assertThat(shot.png()).isEqualTo(PNG);
    assertThat(again.png()).isEqualTo(PNG);
    assertThat(platform.deleted).containsExactlyElementsOf(paths);
    assertThat(platform.files).isEmpty();
  }

  @Test
  void theAgentsArgumentsAreSentWithTheScreenshotFileAdded() {
    platform.script = answering();
    driver.call(s1, win, "click", args("{\"x\":1,\"nested\":{\"a\":[1,2]}}"));
    JsonNode sent = platform.proxies.getFirst().calls("click").getFirst();
    ObjectNode arguments = (ObjectNode) sent.path("params").path("arguments").deepCopy();
    assertThat(arguments.remove("screenshot_out_file").asString()).startsWith("C:\\");
    assertThat(arguments).isEqualTo(args("{\"x\":1,\"nested\":{\"a\":[1,2]}}"));
  }

  @Test
  void aCallThatWroteNoScreenshotHasNoneAndNothingIsRemoved() {
    platform.script = answering();
    assertThat(driver.call(s1, win, "click", args("{}")).png()).isEmpty();
    assertThat(platform.deleted).isEmpty();
  }

  @Test
  void aLostAnswerFailsTheCallWithoutRepeatingItAndTheNextCallOpensANewStream() {
    platform.script =
        request ->
            request.path("params").path("arguments").path("x").asInt() == 5
                ? null
                : ok(request, OK_TEXT);
    driver.handshake(s1, win);
    assertThatThrownBy(() -> driver.call(s1, win, "click", args("{\"x\":5}")))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage(
            "the Driver's connection ended before it answered click; the call may have taken"
                + " effect: check before repeating it");
    assertThat(platform.proxies).hasSize(1);
    assertThat(platform.proxies.getFirst().calls("click")).hasSize(1);
    assertThat(platform.proxies.getFirst().closed()).isTrue();
    driver.call(s1, win, "click", args("{\"x\":6}"));
    assertThat(platform.proxies).hasSize(2);
    assertThat(platform.proxies.getLast().calls("click")).hasSize(1);
  }

  @Test
  void aStreamThatEndedOnItsOwnIsReplacedBeforeTheCallIsSent() throws Exception {
    platform.script = answering();
    driver.handshake(s1, win);
    ScriptedProxy first = platform.proxies.getFirst();
    first.exit("the instance restarted");
    waitUntilClosed(first);
    driver.call(s1, win, "click", args("{}"));
    assertThat(first.calls("click")).isEmpty();
    assertThat(platform.proxies).hasSize(2);
    assertThat(platform.proxies.getLast().calls("click")).hasSize(1);
  }

  @Test
  void forgettingASandboxEndsOnlyItsSessions() {
    platform.script = answering();
    driver.handshake(s1, win);
    driver.handshake(s2, win);
    driver.forget("s1");
    assertThat(platform.proxies.get(0).closed()).isTrue();
    assertThat(platform.proxies.get(1).closed()).isFalse();
    driver.call(s2, win, "click", args("{}"));
    assertThat(platform.proxies).hasSize(2);
  }

  @Test
  void closingEndsEverySessionAndRefusesNewOnes() {
    platform.script = answering();
    driver.handshake(s1, win);
    driver.handshake(s2, win);
    driver.close();
    assertThat(platform.proxies).allMatch(ScriptedProxy::closed);
    assertThatThrownBy(() -> driver.call(s1, win, "click", args("{}")))
        .hasMessage("desktop driver is closed");
  }

  @Test
  void aProxyThatCannotBeStartedIsADaemonThatIsNotRunning() {
    platform.refuse = true;
    assertThat(driver.handshake(s1, win)).isEmpty();
    assertThat(driver.ready(s1, win)).isFalse();
    assertThatThrownBy(() -> driver.call(s1, win, "click", args("{}")))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage("Driver daemon is not running");
  }

  @Test
  void aProxyThatFailsTheHandshakeIsADaemonThatIsNotRunning() {
    platform.exitAtStart = "cua-driver-proxy: no interactive console session";
    assertThat(driver.handshake(s1, win)).isEmpty();
    assertThatThrownBy(() -> driver.call(s1, win, "click", args("{}")))
        .hasMessage("Driver daemon is not running");
    assertThat(platform.proxies).allMatch(ScriptedProxy::closed).hasSize(2);
  }

  @Test
  void aHandshakeWithoutAVersionIsRefusedAndNotKept() {
    platform.version = "";
    platform.script = answering();
    assertThatThrownBy(() -> driver.handshake(s1, win))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage("Driver MCP must include version and tools");
    assertThat(platform.proxies.getFirst().closed()).isTrue();
    assertThat(driver.ready(s1, win)).isFalse();
    assertThat(platform.proxies).hasSize(2);
  }

  @Test
  void readinessIsListWindowsWithNoArgumentsAnsweringWithoutAnError() {
    platform.script =
        request ->
            ok(
                request,
                platform.desktop
                    ? "{\"content\":[],\"structuredContent\":{\"windows\":[]}}"
                    : "{\"content\":[{\"type\":\"text\",\"text\":\"no desktop\"}],\"isError\":true}");
    platform.desktop = false;
    assertThat(driver.ready(s1, win)).isFalse();
    platform.desktop = true;
    assertThat(driver.ready(s1, win)).isTrue();
    List<JsonNode> probes = platform.proxies.getFirst().calls("list_windows");
    assertThat(probes).hasSize(2);
    assertThat(probes.getFirst().path("params").path("arguments")).isEqualTo(args("{}"));
  }

  private static void waitUntilClosed(ScriptedProxy proxy) throws InterruptedException {
    for (int i = 0; i < 100 && !proxy.closed(); i++) {
      Thread.sleep(20);
    }
    assertThat(proxy.closed()).as("the session closes a stream that ended").isTrue();
  }

  /** A platform whose attached commands are scripted proxies, with files in a map. */
  private static final class Attached extends UnsupportedInstances {
    final List<ExecRequest> started = new CopyOnWriteArrayList<>();
    final List<ScriptedProxy> proxies = new CopyOnWriteArrayList<>();
    final Map<String, byte[]> files = new ConcurrentHashMap<>();
    final List<String> deleted = new CopyOnWriteArrayList<>();
    volatile Function<JsonNode, String> script;
    volatile String version = "0.21.0-fake";
    volatile boolean refuse;
    volatile String exitAtStart;
    volatile boolean desktop;

    Platform platform() {
      return new Platform(
          "incus",
          () -> true,
          null,
          this,
          null,
          Optional.empty(),
          Optional.empty(),
          Optional.empty());
    }

    @Override
    public CommandStream openStream(Sandbox sandbox, String name, ExecRequest request) {
      started.add(request);
      if (refuse) {
        throw new BackendException(BackendException.Kind.FAILED, "VM agent isn't running");
      }
      ScriptedProxy proxy = new ScriptedProxy(version);
      proxies.add(proxy);
      if (exitAtStart != null) {
        proxy.exit(exitAtStart);
      } else {
        proxy.serve(script);
      }
      return proxy;
    }

    @Override
    public Optional<byte[]> readFileIfPresent(
        Sandbox sandbox, String name, String path, int limit) {
      return Optional.ofNullable(files.get(path));
    }

    @Override
    public void deleteFile(Sandbox sandbox, String name, String path) {
      deleted.add(path);
      files.remove(path);
    }
  }
}
