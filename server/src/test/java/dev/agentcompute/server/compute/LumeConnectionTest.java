package dev.agentcompute.server.compute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.lume.MacHostDouble;
import dev.agentcompute.server.config.ServerConfig;
import dev.agentcompute.server.errors.StartupException;
import dev.agentcompute.server.observe.ReadinessCheck;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code lume:} section at startup and in /health, against the Mac host double over real SSH
 * (see {@link MacHostDouble#BANNER} for what is real and what is a double).
 */
class LumeConnectionTest {
  @TempDir Path dir;
  private MacHostDouble mac;

  @BeforeAll
  static void banner() {
    System.out.println(MacHostDouble.BANNER);
  }

  @BeforeEach
  void start() throws Exception {
    mac = new MacHostDouble(dir);
  }

  @AfterEach
  void stop() throws Exception {
    mac.close();
  }

  private ServerConfig.Lume lume() {
    return new ServerConfig.Lume(
        "127.0.0.1:" + mac.port(),
        mac.identityFile(),
        mac.knownHostsFile(),
        mac.guest.knownHostsFile(),
        Map.of("macos/tahoe/desktop", mac.guest.keyFile()));
  }

  @Test
  void healthShowsWhetherTheMacHostAnswers() throws Exception {
    try (LumeConnection connection = LumeConnection.open(lume(), mac.tools())) {
      ReadinessCheck check = connection.readiness();
      assertThat(check.name()).isEqualTo("lume");
      assertThat(check.check().up()).isTrue();
      mac.stop();
      ReadinessCheck.Result down = check.check();
      assertThat(down.up()).isFalse();
      assertThat((String) down.details().get("error")).contains("ssh agentcompute@127.0.0.1");
      mac.start();
      assertThat(check.check().up()).isTrue();
    }
  }

  @Test
  void aStockLumeThatWouldShowVncFailsStartup() {
    mac.lume.stockVnc = true;
    assertThatThrownBy(() -> LumeConnection.open(lume(), mac.tools()))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("lume on this host cannot start guests with VNC disabled");
  }

  @Test
  void anUnknownHostKeyFailsStartup() throws Exception {
    mac.replaceKnownHostKey();
    assertThatThrownBy(() -> LumeConnection.open(lume(), mac.tools()))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("host key mismatch");
  }
}
