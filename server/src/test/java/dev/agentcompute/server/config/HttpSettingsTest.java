package dev.agentcompute.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.server.errors.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code http} section: the front door's caps. */
class HttpSettingsTest {
  @TempDir Path dir;

  private ServerConfig load(String extra) throws IOException {
    Path file = dir.resolve("agentcompute.yaml");
    Files.writeString(file, ConfigLoaderTest.MINIMAL + extra);
    return ConfigLoader.load(file).config();
  }

  @Test
  void withoutTheSectionTheDefaultsApply() throws IOException {
    assertThat(load("").http())
        .isEqualTo(
            new ServerConfig.Http(
                256, 32, 512, 64, Duration.ofSeconds(10), Duration.ofSeconds(900)));
  }

  @Test
  void everyCapIsConfigurable() throws IOException {
    assertThat(
            load("http: {max_sessions: 20, max_sessions_per_identity: 4, max_connections: 50,"
                    + " max_concurrent_requests: 8, header_timeout_seconds: 3,"
                    + " drain_timeout_seconds: 60}\n")
                .http())
        .isEqualTo(
            new ServerConfig.Http(20, 4, 50, 8, Duration.ofSeconds(3), Duration.ofSeconds(60)));
  }

  @Test
  void aCapOutOfRangeIsAnErrorNamingTheKey() {
    assertThatThrownBy(() -> load("http: {max_connections: 0}\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("http.max_connections must be between 1 and 100000, got 0");
  }

  @Test
  void thePerIdentityCapCannotExceedTheTotal() {
    assertThatThrownBy(() -> load("http: {max_sessions: 4, max_sessions_per_identity: 8}\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(
            "http.max_sessions_per_identity (8) must not exceed http.max_sessions (4)");
  }

  @Test
  void anUnknownKeyIsRefused() {
    assertThatThrownBy(() -> load("http: {max_sesions: 4}\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("unknown key \"http.max_sesions\"");
  }
}
