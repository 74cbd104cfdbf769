package dev.agentcompute.capabilities.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.screenshots.ScreenshotStore;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * desktop.* driven by Starlark programs through CodeMode on the real incusd, against the
 * busybox-desktop image's test double of cua-driver (images/busybox-desktop): the Driver's user,
 * directory, environment and socket, readiness, tool calls, stripped image payloads, the output
 * bound, screenshots published to the store, resizing and scale, and the temporary files removed.
 */
class DesktopIT {
  private static DesktopHarness h;
  private static String sb;

  /** The Driver's log right after creation, before any test drove the Driver. */
  private static String logAfterCreate;

  @BeforeAll
  static void start() throws Exception {
    h = DesktopHarness.start();
    sb = IncusHarness.uniqueName("itdesk");
    h.run(
        """
        def main():
            sandbox.create(name="%s")
            instance.create(sandbox="%s", name="desk", image="busybox-desktop")
            instance.create(sandbox="%s", name="idle", image="busybox-desktop", start=False)
            return instance.wait(sandbox="%s", name="desk", until="network", timeout_seconds=60)
        """,
        sb, sb, sb, sb);
    logAfterCreate = exec("cat /tmp/cua-fake.log");
  }

  @AfterAll
  static void stop() throws Exception {
    if (h != null) {
      h.deleteSandbox(sb);
      h.close();
    }
  }

  @AfterEach
  void noModesLeft() throws Exception {
    exec("rm -f /etc/cua-fake/* /tmp/cua-fake-first-status");
  }

  private static String exec(String command) throws Exception {
    @SuppressWarnings("unchecked")
    Map<String, Object> r =
        (Map<String, Object>)
            h.run(
                """
                def main():
                    return instance.exec(sandbox="%s", name="desk", command=%s)
                """,
                sb, json(command));
    return (String) r.get("stdout");
  }

  private static String json(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private static void mode(String name, String content) throws Exception {
    exec("echo " + content + " > /etc/cua-fake/" + name);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> call(String capability, String args) throws Exception {
    return (Map<String, Object>)
        h.run(
            """
            def main():
                return %s(sandbox="%s", instance="desk"%s)
            """,
            capability, sb, args.isEmpty() ? "" : ", " + args);
  }

  private static String callFailure(String capability, String args) {
    return h.failure(
        """
        def main():
            return %s(sandbox="%s", instance="desk"%s)
        """,
        capability, sb, args.isEmpty() ? "" : ", " + args);
  }

  private static ScreenshotStore.Screenshot stored(String url) {
    assertThat(url).matches("http://127\\.0\\.0\\.1:8081/screenshots/[0-9a-f]{32}");
    return h.store.find(url.substring(url.lastIndexOf('/') + 1)).orElseThrow();
  }

  @Test
  void creatingADesktopInstanceWaitedForTheDriverAsTheSessionUser() {
    assertThat(logAfterCreate)
        .contains(
            "uid=1000 cwd=/home/automation home=/home/automation xdg=/run/user/1000"
                + " argv=status --socket /run/user/1000/cua-driver.sock");
  }

  /** One run of the test double as the session user, as the real CLI would be run. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> cli(String args) throws Exception {
    return (Map<String, Object>)
        h.run(
            """
            def main():
                return instance.exec(sandbox="%s", name="desk", user="1000", cwd="/home/automation",
                                     env="HOME=/home/automation\\nXDG_RUNTIME_DIR=/run/user/1000",
                                     command=%s)
            """,
            sb, json("/usr/local/bin/cua-driver " + args));
  }

  @Test
  void theTestDoubleAnswersWithTheRealClisTextsAndExitCodes() throws Exception {
    assertThat(cli("status"))
        .containsEntry("exit_code", 0L)
        .containsEntry(
            "stdout",
            "Cua Driver daemon is running on /run/user/1000/cua-driver.sock (pid 4242).\n");
    assertThat(cli("status --socket /tmp/other.sock"))
        .containsEntry("exit_code", 1L)
        .containsEntry("stdout", "Cua Driver daemon is not running on /tmp/other.sock.\n");
    assertThat(cli("call nope '{}'"))
        .containsEntry("exit_code", 64L)
        .containsEntry("stderr", "Unknown tool: nope\n");
    assertThat(cli("call click '[1'")).containsEntry("exit_code", 2L);
    assertThat(cli("call click '{}'"))
        .containsEntry("exit_code", 0L)
        .containsEntry("stdout", "Error: click requires x and y (or element_index with pid)\n");
    assertThat(cli("permissions status --json"))
        .containsEntry("stdout", "{\"accessibility\":true,\"screen_recording\":true}\n");
    assertThat((String) cli("dump-docs --type mcp").get("stdout"))
        .startsWith("{\"version\":\"0.21.0-fake\",\"tools\":[{\"name\":\"click\"")
        .endsWith("}]}\n")
        .doesNotContain("\n{");
    assertThat(cli("call --screenshot-out-file /tmp/t.png get_desktop_state").get("exit_code"))
        .isEqualTo(0L);
    assertThat(exec("head -c 8 /tmp/t.png | od -An -c | tr -s ' '").strip())
        .isEqualTo("211 P N G \\r \\n 032 \\n");
    exec("rm -f /tmp/t.png");
  }

  @Test
  void infoReportsReadinessVersionToolsAndTheVncEndpoint() throws Exception {
    Map<String, Object> info = call("desktop.info", "");
    assertThat(info)
        .containsEntry("ready", true)
        .containsEntry("os", "busybox")
        .containsEntry("driver_version", "0.21.0-fake")
        .containsEntry(
            "tools", List.of("click", "get_desktop_state", "get_window_state", "list_apps"));
    assertThat((String) info.get("vnc")).matches("10\\.211\\.\\d+\\.\\d+:5900");
  }

  @Test
  @SuppressWarnings("unchecked")
  void infoOnAStoppedInstanceIsNotReadyWithNoTools() throws Exception {
    Map<String, Object> info =
        (Map<String, Object>)
            h.run(
                """
                def main():
                    return desktop.info(sandbox="%s", instance="idle")
                """,
                sb);
    assertThat(info)
        .containsEntry("ready", false)
        .containsEntry("os", "busybox")
        .containsEntry("driver_version", "")
        .containsEntry("tools", List.of())
        .doesNotContainKey("vnc");
  }

  @Test
  void infoIsNotReadyWhileTheDaemonIsDown() throws Exception {
    mode("stopped", "1");
    assertThat(call("desktop.info", ""))
        .containsEntry("ready", false)
        .containsEntry("tools", List.of());
  }

  @Test
  void enableAnswersWhetherTheDaemonAnswers() throws Exception {
    assertThat(call("desktop.enable", "")).containsEntry("ready", true);
    mode("stopped", "1");
    assertThat(call("desktop.enable", "")).containsEntry("ready", false);
  }

  @Test
  void enableOnAStoppedInstanceIsNotRunning() {
    assertThat(
            h.failure(
                """
                def main():
                    return desktop.enable(sandbox="%s", instance="idle")
                """,
                sb))
        .isEqualTo("capability failed: instance \"idle\" in sandbox \"" + sb + "\" is not running");
  }

  @Test
  @SuppressWarnings("unchecked")
  void aStructuredToolResultComesBackAsJsonText() throws Exception {
    Map<String, Object> r = call("desktop.call", "tool=\"list_apps\"");
    assertThat(r).containsEntry("ok", true).containsEntry("summary", "1 app running");
    assertThat(r).doesNotContainKey("screenshot_url");
    Map<String, Object> decoded =
        (Map<String, Object>)
            h.run(
                """
                def main():
                    r = desktop.call(sandbox="%s", instance="desk", tool="list_apps", args="{}")
                    return json.decode(r["result"])["apps"][0]
                """,
                sb);
    assertThat(decoded).containsEntry("name", "xfce4-terminal").containsEntry("pid", 1234L);
  }

  @Test
  void argumentsReachTheToolAsOneJsonObject() throws Exception {
    assertThat(call("desktop.call", "tool=\"click\", args='{\"x\": 10, \"y\": 20}'"))
        .containsEntry("ok", true)
        .containsEntry("summary", "Clicked at (10, 20)");
  }

  @Test
  void aToolErrorIsNotOkWithItsText() throws Exception {
    Map<String, Object> r = call("desktop.call", "tool=\"click\"");
    assertThat(r)
        .containsEntry("ok", false)
        .containsEntry("summary", "Error: click requires x and y (or element_index with pid)");
  }

  @Test
  void anUnknownToolIsNotOkWithTheDriversMessage() throws Exception {
    assertThat(call("desktop.call", "tool=\"nope\""))
        .containsEntry("ok", false)
        .containsEntry("summary", "Unknown tool: nope")
        .containsEntry("result", "");
  }

  @Test
  void aToolNameThatLooksLikeAnOptionIsRefused() {
    assertThat(callFailure("desktop.call", "tool=\"--socket\""))
        .isEqualTo("capability failed: tool must be a native Driver tool name, not a CLI option");
    assertThat(callFailure("desktop.call", "tool=\"\""))
        .isEqualTo("capability failed: tool must be a native Driver tool name, not a CLI option");
  }

  @Test
  void argsMustBeAJsonObject() {
    assertThat(callFailure("desktop.call", "tool=\"click\", args=\"[1]\""))
        .isEqualTo("capability failed: args must be a JSON object");
    assertThat(callFailure("desktop.call", "tool=\"click\", args=\"{\""))
        .isEqualTo("capability failed: args must be a JSON object");
  }

  @Test
  @SuppressWarnings("unchecked")
  void imagePayloadsAreStrippedAndTheScreenshotIsAUrl() throws Exception {
    mode("base64", "1");
    Map<String, Object> r = call("desktop.call", "tool=\"get_desktop_state\"");
    assertThat(r).containsEntry("ok", true);
    String result = (String) r.get("result");
    assertThat(result)
        .doesNotContain("screenshot_png_b64")
        .doesNotContain("thumbnail")
        .doesNotContain("data:image/")
        .doesNotContain("iVBORw0KGgo")
        .contains("\"images\":[\"keep\"]")
        .contains("\"screenshot_width\":64");
    ScreenshotStore.Screenshot shot = stored((String) r.get("screenshot_url"));
    assertThat(shot.width()).isEqualTo(64);
    assertThat(shot.height()).isEqualTo(48);
    assertThat(shot.sandbox()).isEqualTo(sb);
  }

  @Test
  void outputOverFourMiBIsTheNamedError() throws Exception {
    mode("huge-output", "1");
    assertThat(callFailure("desktop.call", "tool=\"list_apps\""))
        .isEqualTo("capability failed: Driver output exceeds the 4 MiB JSON limit");
    assertThat(exec("ls /tmp | grep -c '^cua-[0-9a-f]\\{32\\}\\.' || true").strip()).isEqualTo("0");
  }

  @Test
  void theDriversFilesAreRandomlyNamedInTmpAndDeletedAfterACall() throws Exception {
    call("desktop.screenshot", "");
    String log = exec("grep 'argv=call' /tmp/cua-fake.log | tail -1");
    assertThat(log)
        .containsPattern(
            "argv=call --socket /run/user/1000/cua-driver.sock --screenshot-out-file"
                + " /tmp/cua-[0-9a-f]{32}\\.png get_desktop_state \\{\\}");
    assertThat(exec("ls /tmp | grep -c '^cua-[0-9a-f]\\{32\\}\\.' || true").strip()).isEqualTo("0");
  }

  @Test
  void aScreenshotIsAPngUrlWithItsSizeAndScale() throws Exception {
    Map<String, Object> shot = call("desktop.screenshot", "");
    assertThat(shot)
        .containsEntry("width", 64L)
        .containsEntry("height", 48L)
        .containsEntry("scale", 1.0);
    ScreenshotStore.Screenshot stored = stored((String) shot.get("url"));
    BufferedImage image = ImageIO.read(new ByteArrayInputStream(stored.png()));
    assertThat(image.getWidth()).isEqualTo(64);
  }

  @Test
  void maxDimensionShrinksTheImageAndTheScaleMapsBackToDriverCoordinates() throws Exception {
    Map<String, Object> shot = call("desktop.screenshot", "max_dimension=32");
    assertThat(shot)
        .containsEntry("width", 32L)
        .containsEntry("height", 24L)
        .containsEntry("scale", 2.0);
    BufferedImage image =
        ImageIO.read(new ByteArrayInputStream(stored((String) shot.get("url")).png()));
    assertThat(image.getWidth()).isEqualTo(32);
    assertThat(image.getHeight()).isEqualTo(24);
    assertThat(call("desktop.screenshot", "max_dimension=100")).containsEntry("width", 64L);
  }

  @Test
  void aWindowScreenshotAsksForThatPidAndWindow() throws Exception {
    Map<String, Object> shot = call("desktop.screenshot", "pid=42, window_id=7");
    assertThat(shot).containsEntry("width", 64L);
    assertThat(exec("grep 'argv=call' /tmp/cua-fake.log | tail -1"))
        .contains("get_window_state {\"pid\":42,\"window_id\":7}");
  }

  @Test
  void screenshotArgumentsAreChecked() {
    assertThat(callFailure("desktop.screenshot", "pid=42"))
        .isEqualTo("capability failed: pid and window_id must be given together");
    assertThat(callFailure("desktop.screenshot", "pid=-1, window_id=1"))
        .isEqualTo("capability failed: pid and window_id must be non-negative");
    assertThat(callFailure("desktop.screenshot", "max_dimension=-1"))
        .isEqualTo("capability failed: max_dimension must be non-negative");
  }

  @Test
  void waitingForTheDesktopPollsUntilTheDaemonAnswers() throws Exception {
    mode("slow-daemon", "3");
    @SuppressWarnings("unchecked")
    Map<String, Object> waited =
        (Map<String, Object>)
            h.run(
                """
                def main():
                    return instance.wait(sandbox="%s", name="desk", until="desktop", timeout_seconds=60)
                """,
                sb);
    assertThat(waited).containsEntry("status", "Running");
    assertThat((Long) waited.get("elapsed_seconds")).isBetween(2L, 30L);
  }

  @Test
  void waitingForTheDesktopTimesOutWhileTheDaemonIsDown() throws Exception {
    mode("stopped", "1");
    assertThat(
            h.failure(
                """
                def main():
                    return instance.wait(sandbox="%s", name="desk", until="desktop", timeout_seconds=1)
                """,
                sb))
        .isEqualTo(
            "capability failed: instance \"desk\" in sandbox \""
                + sb
                + "\" did not become desktop");
  }

  @Test
  void deletingTheSandboxPurgesItsScreenshots() throws Exception {
    String other = IncusHarness.uniqueName("itdeskdel");
    try {
      @SuppressWarnings("unchecked")
      Map<String, Object> shot =
          (Map<String, Object>)
              h.run(
                  """
                  def main():
                      sandbox.create(name="%s")
                      instance.create(sandbox="%s", name="d", image="busybox-desktop")
                      return desktop.screenshot(sandbox="%s", instance="d")
                  """,
                  other, other, other);
      String url = (String) shot.get("url");
      String id = url.substring(url.lastIndexOf('/') + 1);
      assertThat(h.store.find(id)).isPresent();
      h.run("def main():\n    return sandbox.delete(name=\"%s\")\n", other);
      assertThat(h.store.find(id)).isEmpty();
    } finally {
      h.deleteSandbox(other);
    }
  }
}
