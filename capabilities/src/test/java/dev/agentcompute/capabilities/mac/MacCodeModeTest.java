package dev.agentcompute.capabilities.mac;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.lume.GuestDouble;
import dev.agentcompute.lume.MacHostDouble;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mac sandboxes through the CodeMode engine. REAL: the engine, the services, the Mac backend, the
 * SSH connection to the host, SFTP and exec in the guest. DOUBLES: the Lume daemon and the host's
 * lume/plutil/launchctl (see {@link MacHostDouble#BANNER}).
 */
class MacCodeModeTest {
  private static final String IMAGE = MacStack.IMAGE;

  @TempDir Path dir;
  private MacStack stack;
  private MacHostDouble mac;

  @BeforeAll
  static void banner() {
    System.out.println(MacHostDouble.BANNER);
  }

  @BeforeEach
  void start() throws Exception {
    stack = new MacStack(dir);
    mac = stack.mac;
  }

  @AfterEach
  void stop() throws Exception {
    stack.close();
  }

  private Object run(String program) throws CodeModeException {
    return stack.run(program);
  }

  private String failure(String program) {
    return stack.failure(program);
  }

  private void createSandboxWithGuest(String sandbox, String instance) throws Exception {
    stack.createSandboxWithGuest(sandbox, instance);
  }

  @Test
  @SuppressWarnings("unchecked")
  void anAgentCreatesAMacGuestRunsCommandsAndMovesFiles() throws Exception {
    Map<String, Object> created =
        (Map<String, Object>)
            run(
                """
        def main():
            return sandbox.create(name="demo", platform="mac")
        """);
    assertThat(created.get("platform")).isEqualTo("mac");
    assertThat(created.get("network"))
        .isEqualTo(Map.of("name", "", "kind", "", "cidr", "", "gateway", ""));
    String note = mac.guest.home.resolve("note.txt").toString();
    Map<String, Object> result =
        (Map<String, Object>)
            run(
                """
        def main():
            i = instance.create(sandbox="demo", name="web", image="%s")
            e = instance.exec(sandbox="demo", name="web", command="echo $GREETING; pwd", env="GREETING=hello", cwd="/tmp")
            instance.file.write(sandbox="demo", name="web", path="%s", content="hi there")
            f = instance.file.read(sandbox="demo", name="web", path="%s")
            g = instance.get(sandbox="demo", name="web")
            return {"create": i, "exec": e, "file": f, "get": g, "list": sandbox.list()}
        """
                    .formatted(IMAGE, note, note));
    Map<String, Object> instance = (Map<String, Object>) result.get("create");
    assertThat(instance.get("status")).isEqualTo("Running");
    assertThat(instance.get("kind")).isEqualTo("vm");
    Map<String, Object> exec = (Map<String, Object>) result.get("exec");
    assertThat(exec.get("stdout")).isEqualTo("hello\n/tmp\n");
    assertThat(exec.get("exit_code")).isEqualTo(0L);
    assertThat(((Map<String, Object>) result.get("file")).get("content")).isEqualTo("hi there");
    Map<String, Object> get = (Map<String, Object>) result.get("get");
    assertThat(get.get("cpus")).isEqualTo(4L);
    List<Map<String, Object>> nics = (List<Map<String, Object>>) get.get("nics");
    assertThat(nics.getFirst().get("name")).isEqualTo("en0");
    assertThat(nics.getFirst().get("mac"))
        .isEqualTo(mac.lume.configValue("ac-demo-web", "macAddress"));
    assertThat(mac.lume.configValue("ac-demo-web", "machineIdentifier"))
        .isEqualTo(mac.lume.configValue(GuestDouble.SEED, "machineIdentifier"));
    assertThat(mac.guest.commands)
        .contains("cd '/tmp' && exec env GREETING='hello' 'sh' '-c' 'echo $GREETING; pwd'");
    List<Map<String, Object>> items =
        (List<Map<String, Object>>) ((Map<String, Object>) result.get("list")).get("items");
    assertThat(items).singleElement().satisfies(s -> assertThat(s.get("instances")).isEqualTo(1L));
  }

  @Test
  void capabilitiesMacDoesNotOfferAnswerUnsupported() throws Exception {
    run(
        """
        def main():
            sandbox.create(name="demo", platform="mac")
        """);
    for (String call :
        List.of(
            "net.list(sandbox=\"demo\")",
            "net.create(sandbox=\"demo\", name=\"lan\")",
            "net.get(sandbox=\"demo\", name=\"default\")")) {
      assertThat(failure("def main():\n    return " + call + "\n"))
          .as(call)
          .isEqualTo("capability failed: unsupported on platform mac");
    }
    assertThat(
            failure(
                """
        def main():
            instance.create(sandbox="demo", name="web", image="%s", network="lan")
        """
                    .formatted(IMAGE)))
        .isEqualTo("capability failed: unsupported on platform mac");
  }

  @Test
  void aThirdRunningGuestIsRefusedBeforeAnyLumeCall() throws Exception {
    mac.lume.otherAccountsRunning = 0;
    createSandboxWithGuest("one", "a");
    createSandboxWithGuest("two", "b");
    int requests = mac.lume.requests.size();
    assertThat(
            failure(
                """
        def main():
            sandbox.create(name="three", platform="mac")
            instance.create(sandbox="three", name="c", image="%s")
        """
                    .formatted(IMAGE)))
        .isEqualTo(
            "capability failed: macOS guest limit reached (2 per host); the owner's macOS VMs"
                + " share this budget");
    assertThat(mac.lume.requests.subList(requests, mac.lume.requests.size())).isEmpty();
  }

  @Test
  void anotherAccountsGuestsShowUpInTheServeLogAsApplesLimit() throws Exception {
    mac.lume.otherAccountsRunning = 2;
    assertThat(
            failure(
                """
        def main():
            sandbox.create(name="demo", platform="mac")
            instance.create(sandbox="demo", name="web", image="%s")
        """
                    .formatted(IMAGE)))
        .isEqualTo(
            "capability failed: Apple's two-guest host-wide macOS VM limit is reached; another"
                + " account is holding a slot");
  }

  @Test
  void snapshotsAreStoppedClonesAndRestoreKeepsThem() throws Exception {
    createSandboxWithGuest("demo", "web");
    Object listed =
        run(
            """
        def main():
            instance.snapshot.create(sandbox="demo", name="web", snapshot="s1")
            instance.snapshot.restore(sandbox="demo", name="web", snapshot="s1")
            return [s["name"] for s in instance.snapshot.list(sandbox="demo", name="web")["items"]]
        """);
    assertThat(listed).isEqualTo(List.of("s1"));
    assertThat(mac.lume.vms)
        .containsKeys("ac-demo-web-s-s1", "ac-demo-web-s-s1-r")
        .doesNotContainKey("ac-demo-web");
    assertThat(mac.lume.vms.get("ac-demo-web-s-s1-r").status()).isEqualTo("running");
    assertThat(
            failure(
                """
        def main():
            instance.snapshot.create(sandbox="demo", name="web", snapshot="s1")
        """))
        .isEqualTo("capability failed: snapshot \"s1\" already exists on instance \"web\"");
  }

  @Test
  void deletingASandboxDeletesExactlyItsVmsAndNeverTheSeed() throws Exception {
    createSandboxWithGuest("demo", "web");
    mac.lume.addVm("ac-demo-web-other", 2, 4L << 30, 100L << 30);
    run(
        """
        def main():
            instance.snapshot.create(sandbox="demo", name="web", snapshot="s1")
            sandbox.delete(name="demo")
        """);
    assertThat(mac.lume.vms.keySet())
        .containsExactlyInAnyOrder(GuestDouble.SEED, "ac-demo-web-other");
    assertThat(
            failure(
                """
        def main():
            sandbox.get(name="demo")
        """))
        .isEqualTo("capability failed: sandbox \"demo\" not found");
  }

  @Test
  @SuppressWarnings("unchecked")
  void pinsSurviveAServerRestart() throws Exception {
    run(
        """
        def main():
            sandbox.create(name="demo", platform="mac", pinned=True)
        """);
    stack.restart();
    Map<String, Object> got =
        (Map<String, Object>)
            run(
                """
        def main():
            return sandbox.get(name="demo")
        """);
    assertThat(got.get("pinned")).isEqualTo(true);
    assertThat(got.get("pinned_by")).isEqualTo("op");
    assertThat(got.get("networks")).isEqualTo(List.of());
  }

  @Test
  void aHostKeyMismatchIsRefused() throws Exception {
    mac.replaceKnownHostKey();
    assertThat(
            failure(
                """
        def main():
            sandbox.create(name="demo", platform="mac")
        """))
        .isEqualTo("capability failed");
    assertThat(stack.platform.ready()).isFalse();
  }
}
