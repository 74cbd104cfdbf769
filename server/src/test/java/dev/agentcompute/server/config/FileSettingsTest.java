package dev.agentcompute.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.files.TransferLimits;
import dev.agentcompute.server.errors.ConfigException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code files} section: file transfer URLs and their limits. */
class FileSettingsTest {
  @TempDir Path dir;

  private ServerConfig load(String extra) throws IOException {
    Path file = dir.resolve("agentcompute.yaml");
    Files.writeString(file, ConfigLoaderTest.MINIMAL + extra);
    return ConfigLoader.load(file).config();
  }

  @Test
  void withoutTheSectionTheDefaultsApply() throws IOException {
    assertThat(load("").files())
        .isEqualTo(new ServerConfig.Files(Optional.empty(), TransferLimits.defaults()));
    assertThat(TransferLimits.defaults())
        .isEqualTo(new TransferLimits(4L << 30, Duration.ofMinutes(5), 16, Duration.ofHours(1)));
  }

  @Test
  void everyKeyIsConfigurable() throws IOException {
    assertThat(
            load("files: {base_url: \"https://files.example/agent\", max_upload_bytes: 1048576,"
                    + " url_ttl_seconds: 60, max_urls_per_identity: 2,"
                    + " transfer_timeout_seconds: 120}\n")
                .files())
        .isEqualTo(
            new ServerConfig.Files(
                Optional.of(URI.create("https://files.example/agent")),
                new TransferLimits(1048576, Duration.ofSeconds(60), 2, Duration.ofSeconds(120))));
  }

  @Test
  void aLimitOutOfRangeIsAnErrorNamingTheKeyAndAllAreReported() {
    assertThatThrownBy(
            () ->
                load(
                    "files: {max_upload_bytes: 0, url_ttl_seconds: 86401,"
                        + " max_urls_per_identity: -1, transfer_timeout_seconds: 0}\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("files.max_upload_bytes must be between 1 and 1099511627776, got 0")
        .hasMessageContaining("files.url_ttl_seconds must be between 1 and 86400, got 86401")
        .hasMessageContaining("files.max_urls_per_identity must be between 1 and 10000, got -1")
        .hasMessageContaining("files.transfer_timeout_seconds must be between 1 and 86400, got 0");
  }

  @Test
  void theBaseUrlMustBeAnAbsoluteHttpUrl() {
    assertThatThrownBy(() -> load("files: {base_url: \"ftp://x/y\"}\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(
            "files.base_url must be an absolute http or https URL without userinfo, query, or"
                + " fragment, got \"ftp://x/y\"");
  }

  @Test
  void anUnknownKeyIsRefused() {
    assertThatThrownBy(() -> load("files: {max_upload: 4}\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("unknown key \"files.max_upload\"");
  }
}
