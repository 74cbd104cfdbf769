package dev.agentcompute.capabilities.mac;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.lume.GuestDouble;
import dev.agentcompute.lume.MacHost;
import dev.agentcompute.lume.MacHostDouble;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The macOS desktop stage and desktop.* on a Mac guest, through the CodeMode engine (see {@link
 * MacHostDouble#BANNER}: SSH, SFTP and the shell are real; the guest's macOS tools and the Cua
 * Driver are shims).
 */
class MacDesktopTest {
  @TempDir Path dir;
  private MacStack stack;

  @BeforeAll
  static void banner() {
    System.out.println(MacHostDouble.BANNER);
  }

  @BeforeEach
  void start() throws Exception {
    stack = new MacStack(dir);
  }

  @AfterEach
  void stop() throws Exception {
    stack.close();
  }

  private GuestDouble.Desktop desktop() {
    return stack.mac.guest.desktop;
  }

  @Test
  @SuppressWarnings("unchecked")
  void aDesktopGuestIsCreatedOnceItsSessionIsReadyAndDrivesItsDesktop() throws Exception {
    stack.createSandboxWithGuest("demo", "web");
    assertThat(desktop().daemonRunning()).isTrue();
    assertThat(desktop().launchctlLog())
        .contains("print gui/501\n", "kickstart gui/501/com.trycua.cua_driver_daemon\n");

    Map<String, Object> info =
        (Map<String, Object>) stack.eval("desktop.info(sandbox=\"demo\", instance=\"web\")");
    assertThat(info)
        .containsEntry("ready", true)
        .containsEntry("os", "macos")
        .containsEntry("driver_version", "0.22.2-double");
    assertThat((List<String>) info.get("tools")).contains("get_desktop_state", "list_apps");
    assertThat(stack.eval("desktop.enable(sandbox=\"demo\", instance=\"web\")"))
        .isEqualTo(Map.of("ready", true));

    Map<String, Object> shot =
        (Map<String, Object>) stack.eval("desktop.screenshot(sandbox=\"demo\", instance=\"web\")");
    assertThat(shot).containsEntry("width", 64L).containsEntry("height", 48L);
    // The Driver reports its coordinate width as the screenshot's (screenshot_width 64).
    assertThat(shot).containsEntry("scale", 1.0);
    String url = (String) shot.get("url");
    assertThat(url).startsWith("http://127.0.0.1:8081/screenshots/");
    String id = url.substring(url.lastIndexOf('/') + 1);
    assertThat(stack.screenshots.find(id)).isPresent();
    // Nothing of the Driver's output files is left in the guest's /tmp by this run.
    assertThat(stack.mac.guest.commands).anyMatch(c -> c.contains("rm") && c.contains("/tmp/cua-"));
  }

  @Test
  void createWaitsUntilTheConsoleBelongsToLume() throws Exception {
    desktop().consoleOwner("root");
    CompletableFuture<Void> created =
        CompletableFuture.runAsync(
            () -> {
              try {
                stack.createSandboxWithGuest("demo", "web");
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    Thread.sleep(3000);
    assertThat(created).as("create while root owns the console").isNotDone();
    assertThat(desktop().daemonRunning()).isFalse();
    desktop().consoleOwner("lume");
    created.get(30, TimeUnit.SECONDS);
    assertThat(desktop().daemonRunning()).isTrue();
  }

  @Test
  void aDesktopThatNeverGetsReadyFailsTheCreate() throws Exception {
    // A short create budget, so the timeout comes soon.
    stack.close();
    stack = new MacStack(dir.resolve("short"), Duration.ofSeconds(6));
    desktop().processes("WindowServer", "Setup Assistant");
    assertThat(
            stack.failure(
                """
                def main():
                    sandbox.create(name="demo", platform="mac")
                    instance.create(sandbox="demo", name="web", image="%s")
                """
                    .formatted(MacStack.IMAGE)))
        .startsWith("capability failed");
  }

  /** Each unmet condition, in the order the stage checks them, named as the error says it. */
  @Test
  void theStageNamesTheFirstUnmetCondition() throws Exception {
    stack.createSandboxWithGuest("demo", "web");
    String ip = stack.mac.lume.vms.get("ac-demo-web").ip();
    try (MacHost host = MacHost.of(stack.mac.config());
        var guest = host.guest(ip, GuestDouble.SEED, stack.mac.guest.keyFile())) {
      MacHost.GuestPaths paths = stack.mac.guest.paths();
      assertThat(MacDesktopSession.notReady(guest, paths)).isEmpty();

      desktop().consoleOwner("root");
      assertThat(MacDesktopSession.notReady(guest, paths))
          .contains("the console belongs to root, not lume");
      desktop().consoleOwner("lume");

      desktop().processes("Dock");
      assertThat(MacDesktopSession.notReady(guest, paths)).contains("Finder is not running");
      desktop().processes("Finder");
      assertThat(MacDesktopSession.notReady(guest, paths)).contains("the Dock is not running");
      desktop().processes("Finder", "Dock", "Setup Assistant");
      assertThat(MacDesktopSession.notReady(guest, paths)).contains("Setup Assistant is running");
      desktop().processes("Finder", "Dock");

      desktop().guiDomain(false);
      assertThat(MacDesktopSession.notReady(guest, paths))
          .contains("launchd has no GUI domain gui/501");
      desktop().guiDomain(true);

      desktop().permissions("{\"accessibility\":false,\"screen_recording\":true}");
      assertThat(MacDesktopSession.notReady(guest, paths))
          .contains("Accessibility is not granted to the Cua Driver");
      desktop().permissions("{\"accessibility\":true,\"screen_recording\":false}");
      assertThat(MacDesktopSession.notReady(guest, paths))
          .contains("Screen Recording is not granted to the Cua Driver");
      desktop()
          .permissions(
              "{\"accessibility\":true,\"screen_recording\":true,"
                  + "\"source\":{\"attribution\":\"terminal\"}}");
      assertThat(MacDesktopSession.notReady(guest, paths))
          .contains(
              "Cua Driver permissions are attributed to \"terminal\", not to the driver-daemon");
      desktop().permissions("not json");
      assertThat(MacDesktopSession.notReady(guest, paths))
          .isEqualTo(Optional.of("cua-driver permissions status printed no JSON object"));
    }
  }
}
