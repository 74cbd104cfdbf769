package dev.agentcompute.capabilities.mac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.lume.LocalLumeServer;
import dev.agentcompute.lume.MacHostDouble;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Instance calls on one running macOS guest through the CodeMode engine (see {@link
 * MacHostDouble#BANNER} for what is real and what is a double). One guest serves every test here,
 * so each test leaves it running.
 */
class MacInstanceTest {
  @TempDir static Path dir;
  private static MacStack stack;

  @BeforeAll
  static void start() throws Exception {
    System.out.println(MacHostDouble.BANNER);
    stack = new MacStack(dir);
    stack.createSandboxWithGuest("demo", "web");
  }

  @AfterAll
  static void stop() throws Exception {
    stack.close();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> exec(String args) throws Exception {
    return (Map<String, Object>)
        stack.eval("instance.exec(sandbox=\"demo\", name=\"web\", " + args + ")");
  }

  @Test
  void execKeepsTheFirst64KiBOfEachStreamAndFlagsTheRest() throws Exception {
    Map<String, Object> r =
        exec("command=\"head -c 70000 /dev/zero | tr '\\\\0' a; echo err >&2\"");
    assertThat((String) r.get("stdout")).hasSize(65_536).matches("a+");
    assertThat(r.get("stdout_truncated")).isEqualTo(true);
    assertThat(r.get("stderr")).isEqualTo("err\n");
    assertThat(r.get("stderr_truncated")).isEqualTo(false);
  }

  @Test
  void anExecDeadlineKillsTheCommandAndKeepsItsOutput() throws Exception {
    Map<String, Object> r = exec("command=\"echo started; sleep 30\", timeout_seconds=1");
    assertThat(r.get("timed_out")).isEqualTo(true);
    assertThat(r.get("exit_code")).isEqualTo(-1L);
    assertThat(r.get("stdout")).isEqualTo("started\n");
  }

  @Test
  void backgroundProcessesAreRefusedWithThePlatformAndTheForegroundExecNamed() {
    assertThat(
            stack.evalFailure(
                "instance.exec(sandbox=\"demo\", name=\"web\", command=\"sleep 5\","
                    + " background=True)"))
        .contains(
            "instance.exec with background=True is unsupported on platform mac: background"
                + " processes run in Linux containers on Incus only; run the command in the"
                + " foreground with instance.exec(timeout_seconds=...)");
    for (String capability :
        new String[] {"instance.process.get", "instance.process.wait", "instance.process.kill"}) {
      assertThat(
              stack.evalFailure(
                  capability + "(sandbox=\"demo\", name=\"web\", process=\"p00000000abcd\")"))
          .contains(capability + " is unsupported on platform mac");
    }
    assertThat(stack.evalFailure("instance.process.list(sandbox=\"demo\", name=\"web\")"))
        .contains("instance.process.list is unsupported on platform mac");
  }

  @Test
  void exitCodesAndStdinPassThrough() throws Exception {
    assertThat(exec("command=\"exit 7\"").get("exit_code")).isEqualTo(7L);
    assertThat(exec("command=\"cat\", stdin=\"piped\"").get("stdout")).isEqualTo("piped");
  }

  @Test
  void exitStatus255IsAGuestTransportError() {
    assertThat(
            stack.evalFailure(
                "instance.exec(sandbox=\"demo\", name=\"web\", command=\"exit 255\")"))
        .isEqualTo("capability failed: guest ssh transport error");
  }

  @Test
  void theLumeUserIsTheLoginUserAndOthersAreRefusedWithTheMacText() throws Exception {
    int before = stack.mac.guest.commands.size();
    exec("command=\"whoami\", user=\"lume\"");
    assertThat(stack.mac.guest.commands.subList(before, stack.mac.guest.commands.size()))
        .contains("exec 'sh' '-c' 'whoami'");
    assertThatThrownBy(() -> exec("command=\"id\", user=\"alice\""))
        .hasMessageContaining("exec user must be lume, root, or a numeric UID");
  }

  @Test
  void rootAndNumericUsersRunThroughSudo() throws Exception {
    exec("command=\"id -u\", user=\"root\"");
    exec("command=\"id -u\", user=\"1000\"");
    exec("command=\"id -u\", user=\"501\"");
    assertThat(stack.mac.guest.commands)
        .contains(
            "exec sudo -n -- 'sh' '-c' 'id -u'",
            "exec sudo -n -u '#1000' -- 'sh' '-c' 'id -u'",
            "exec 'sh' '-c' 'id -u'");
  }

  @Test
  void filesThatAreMissingOrNotRegularSayWhich() {
    String missing = stack.mac.guest.home.resolve("missing.txt").toString();
    String folder = stack.mac.guest.home.toString();
    assertThat(
            stack.evalFailure(
                "instance.file.read(sandbox=\"demo\", name=\"web\", path=\"" + missing + "\")"))
        .isEqualTo("capability failed: file not found on instance \"web\" in sandbox \"demo\"");
    assertThat(
            stack.evalFailure(
                "instance.file.read(sandbox=\"demo\", name=\"web\", path=\"" + folder + "\")"))
        .isEqualTo("capability failed: path \"" + folder + "\" is not a regular file");
  }

  @Test
  void createRefusesADuplicateAShrinkingDiskAndAMissingSeed() throws Exception {
    assertThat(
            stack.evalFailure(
                "instance.create(sandbox=\"demo\", name=\"web\", image=\""
                    + MacStack.IMAGE
                    + "\")"))
        .isEqualTo("capability failed: instance \"web\" already exists in sandbox \"demo\"");
    assertThat(
            stack.evalFailure(
                "instance.create(sandbox=\"demo\", name=\"small\", image=\""
                    + MacStack.IMAGE
                    + "\", disk_gb=50, start=False)"))
        .isEqualTo(
            "capability failed: disk size 50GiB would shrink the clone from 107374182400 bytes");
    assertThat(stack.mac.lume.vms).doesNotContainKey("ac-demo-small");
  }

  @Test
  @SuppressWarnings("unchecked")
  void desktopInfoNamesTheVncListenerLumeReportsAndNoneWithoutOne() throws Exception {
    var lume = stack.mac.lume;
    var vm = lume.vms.get("ac-demo-web");
    // A VNC session opened on the Mac after start (the guest runs without one by policy).
    lume.vms.put(
        "ac-demo-web",
        new LocalLumeServer.Vm(
            vm.name(),
            vm.cpus(),
            vm.memoryBytes(),
            vm.diskBytes(),
            "running",
            vm.ip(),
            "vnc://:pw@127.0.0.1:5901"));
    try {
      Map<String, Object> info =
          (Map<String, Object>) stack.eval("desktop.info(sandbox=\"demo\", instance=\"web\")");
      assertThat(info).containsEntry("ready", true).containsEntry("os", "macos");
      assertThat(info).containsEntry("vnc", "vnc://:pw@127.0.0.1:5901");
    } finally {
      lume.vms.put("ac-demo-web", vm);
    }
    Map<String, Object> without =
        (Map<String, Object>) stack.eval("desktop.info(sandbox=\"demo\", instance=\"web\")");
    assertThat(without.get("vnc")).isEqualTo(vm.ip() + ":5900");
  }

  @Test
  void publishingAMacInstanceIsUnsupported() {
    assertThat(
            stack.evalFailure("instance.publish(sandbox=\"demo\", name=\"web\", image=\"mine\")"))
        .isEqualTo("capability failed: unsupported on platform mac");
    // Whether or not the instance exists: the platform's answer comes first.
    assertThat(
            stack.evalFailure(
                "instance.publish(sandbox=\"demo\", name=\"nosuch\", image=\"mine\")"))
        .isEqualTo("capability failed: unsupported on platform mac");
  }

  @Test
  void sidecarsOfAnotherVersionAreLeftOutOfTheList() throws Exception {
    java.nio.file.Path dir = stack.mac.home.resolve(".agentcompute/sandboxes");
    java.nio.file.Files.writeString(
        dir.resolve("future.json"), "{\"version\":2,\"name\":\"future\",\"platform\":\"mac\"}");
    try {
      assertThat(stack.eval("[s[\"name\"] for s in sandbox.list()[\"items\"]]"))
          .isEqualTo(java.util.List.of("demo"));
      assertThat(stack.evalFailure("sandbox.get(name=\"future\")")).isEqualTo("capability failed");
    } finally {
      java.nio.file.Files.delete(dir.resolve("future.json"));
    }
  }

  @Test
  void theSidecarIsVersionOneWithTheInstanceMapping() throws Exception {
    String text =
        java.nio.file.Files.readString(stack.mac.home.resolve(".agentcompute/sandboxes/demo.json"));
    assertThat(text)
        .startsWith("{\"version\":1,\"name\":\"demo\",\"platform\":\"mac\"")
        .contains("\"web\":{\"vm\":\"ac-demo-web\",\"image\":\"macos/tahoe/desktop\"")
        .contains("\"seed\":\"ac-seed-macos-tahoe-desktop\"")
        .contains("\"prepared\":true");
  }

  @Test
  void stopStartAndRestartReportTheStatus() throws Exception {
    assertThat(stack.eval("instance.stop(sandbox=\"demo\", name=\"web\")"))
        .isEqualTo(Map.of("status", "Stopped"));
    assertThat(stack.mac.lume.vms.get("ac-demo-web").status()).isEqualTo("stopped");
    assertThat(stack.eval("instance.start(sandbox=\"demo\", name=\"web\")"))
        .isEqualTo(Map.of("status", "Running"));
    assertThat(stack.eval("instance.restart(sandbox=\"demo\", name=\"web\")"))
        .isEqualTo(Map.of("status", "Running"));
    assertThat(stack.mac.lume.vms.get("ac-demo-web").status()).isEqualTo("running");
  }
}
