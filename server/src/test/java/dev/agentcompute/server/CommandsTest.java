package dev.agentcompute.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.server.config.ConfigLoaderTest;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandsTest {
  @TempDir Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(Map<String, String> env, String... args) {
    return Commands.run(
        List.of(args),
        env,
        new ByteArrayInputStream(new byte[0]),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String stdout() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String stderr() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void versionAndHelpGoToStdout() {
    assertThat(run(Map.of(), "--version")).isZero();
    assertThat(stdout()).startsWith("agentcompute ").contains(" built ");
    assertThat(run(Map.of(), "--help")).isZero();
    assertThat(stdout()).contains("Usage: agentcompute-server");
  }

  @Test
  void usageErrorsExitTwo() {
    assertThat(run(Map.of(), "--bogus")).isEqualTo(2);
    assertThat(stderr()).startsWith("agentcompute-server: unknown flag: --bogus");
    assertThat(run(Map.of(), "validate")).isEqualTo(2);
    assertThat(stderr()).contains("configuration is required: use --config or AGENTCOMPUTE_CONFIG");
  }

  @Test
  void validateReportsEveryProblemPerLineForCi() throws Exception {
    Path bad = dir.resolve("bad.toml");
    Files.writeString(
        bad,
        "[incus]\npool = \"p\"\novn_uplink = \"u\"\n[sandbox]\ndefault_ttl_minutes = 0\n"
            + "max_ttl_minutes = -5\n[screenshots]\nbase_url = \"ftp://h/\"\n");
    assertThat(run(Map.of("AGENTCOMPUTE_CONFIG", bad.toString()), "validate")).isEqualTo(1);
    assertThat(stderr().lines().toList())
        .containsExactly(
            bad + ": configure exactly one of incus.remote and incus.url",
            bad
                + ": sandbox TTL minutes must be positive, representable durations with default"
                + " <= maximum",
            bad
                + ": screenshots.base_url must be an absolute http or https URL without userinfo,"
                + " query, or fragment");
    assertThat(stdout()).isEmpty();
  }

  @Test
  void validateAcceptsAValidCandidateAndPrintsItsDigests() throws Exception {
    Files.createDirectories(dir.resolve("images"));
    Files.writeString(dir.resolve("images/catalog.yaml"), "schema_version: 1\nimages: []\n");
    Path good = dir.resolve("agentcompute.yaml");
    Files.writeString(good, ConfigLoaderTest.MINIMAL);
    assertThat(run(Map.of(), "validate", "--config", good.toString())).isZero();
    assertThat(stdout())
        .matches(
            java.util.regex.Pattern.quote(good.toString())
                + ": valid \\(config sha256:[0-9a-f]{12}, catalogue sha256:[0-9a-f]{12}\\)\\n");
  }

  @Test
  void aMissingCatalogueFailsValidation() throws Exception {
    Path good = dir.resolve("agentcompute.yaml");
    Files.writeString(good, ConfigLoaderTest.MINIMAL);
    assertThat(run(Map.of(), "validate", "--config", good.toString())).isEqualTo(1);
    assertThat(stderr())
        .isEqualTo(
            good
                + ": images_file "
                + dir.resolve("images/catalog.yaml")
                + ": cannot be read (no such file)\n");
  }
}
