package dev.agentcompute.capabilities.mac;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a start can fail: the run window, a VNC listener, an impostor guest. */
class MacStartTest {
  @TempDir Path dir;
  private MacStack stack;

  @BeforeEach
  void start() throws Exception {
    stack = new MacStack(dir);
    stack.run(
        """
        def main():
            sandbox.create(name="demo", platform="mac")
        """);
  }

  @AfterEach
  void stop() throws Exception {
    stack.close();
  }

  private String createWeb() {
    return stack.evalFailure(
        "instance.create(sandbox=\"demo\", name=\"web\", image=\"" + MacStack.IMAGE + "\")");
  }

  @Test
  void theRunWindowIsTwelveSecondsByDefault() {
    assertThat(MacConfig.RUN_WINDOW).hasSeconds(12);
  }

  @Test
  void aVmStillStoppedAfterTheRunWindowFailsTheCreate() {
    stack.mac.lume.bootDelayMillis = 4_000; // the stack's window is 2 s
    assertThat(createWeb()).isEqualTo("capability failed");
    assertThat(stack.mac.lume.requests).contains("POST /lume/vms/ac-demo-web/run");
  }

  @Test
  void aGuestWithAVncListenerIsStoppedAgain() {
    stack.mac.lume.stockVnc = true;
    assertThat(createWeb())
        .isEqualTo(
            "capability failed: vm \"ac-demo-web\" started a VNC listener despite the"
                + " \"disabled\" run policy; it was stopped again");
    assertThat(stack.mac.lume.vms.get("ac-demo-web").status()).isEqualTo("stopped");
  }

  @Test
  void aGuestWhoseHostKeyIsNotTheSeedsIsNeverTrusted() throws Exception {
    stack.createSandboxWithGuest("other", "web");
    stack.mac.guest.replaceKnownHostKey();
    assertThat(
            stack.evalFailure("instance.exec(sandbox=\"other\", name=\"web\", command=\"true\")"))
        .isEqualTo("capability failed: guest ssh transport error");
    assertThat(stack.mac.guest.commands).doesNotContain("exec 'sh' '-c' 'true'");
  }
}
