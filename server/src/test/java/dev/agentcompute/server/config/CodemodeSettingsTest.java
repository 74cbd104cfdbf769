package dev.agentcompute.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.server.errors.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** tokens_secret_file, codemode.worker_reuse, sandbox.confirm and sandbox.visibility. */
class CodemodeSettingsTest {
  @TempDir Path dir;

  private ServerConfig load(String extra) throws IOException {
    Path file = dir.resolve("agentcompute.yaml");
    Files.writeString(file, ConfigLoaderTest.MINIMAL + extra);
    return ConfigLoader.load(file).config();
  }

  private List<String> problems(String extra) {
    return ((ConfigException) org.assertj.core.api.Assertions.catchThrowable(() -> load(extra)))
        .problems();
  }

  @Test
  void defaultsAreOffAllAndNone() throws IOException {
    ServerConfig c = load("");
    assertThat(c.codemode().tokensSecretFile()).isEmpty();
    assertThat(c.codemode().workerReuse()).isEmpty();
    assertThat(c.sandbox().confirm()).isEmpty();
    assertThat(c.sandbox().visibility()).isEqualTo("all");
    assertThat(c.sandbox().ownerVisibility()).isFalse();
  }

  @Test
  void tokenSecretIs32RawBytesOr64HexDigitsResolvedAgainstTheFile() throws IOException {
    byte[] raw = new byte[32];
    raw[0] = 7;
    Files.write(dir.resolve("raw"), raw);
    ServerConfig c = load("tokens_secret_file: raw\n");
    assertThat(c.codemode().tokensSecretFile()).contains(dir.resolve("raw"));
    assertThat(CodemodeSettings.readSecret(dir.resolve("raw"))).isEqualTo(raw);

    Files.writeString(dir.resolve("hex"), HexFormat.of().formatHex(raw) + "\n");
    assertThat(CodemodeSettings.readSecret(dir.resolve("hex"))).isEqualTo(raw);

    Files.writeString(dir.resolve("short"), "too short");
    assertThat(problems("tokens_secret_file: short\n"))
        .containsExactly(
            "tokens_secret_file "
                + dir.resolve("short")
                + " must hold exactly 32 bytes or 64 hex digits, it holds 9 bytes");
    assertThat(problems("tokens_secret_file: missing\n").getFirst())
        .startsWith("tokens_secret_file " + dir.resolve("missing") + " cannot be read");
    assertThat(problems("tokens_secret_file: ''\n"))
        .containsExactly("tokens_secret_file must not be empty");
  }

  @Test
  void workerReuseBounds() throws IOException {
    ServerConfig c = load("codemode: {worker_reuse: {max_executions: 20, max_idle_seconds: 5}}\n");
    assertThat(c.codemode().workerReuse())
        .contains(new ServerConfig.WorkerReuse(20, Duration.ofSeconds(5)));
    assertThat(load("codemode: {worker_reuse: {max_executions: 3}}\n").codemode().workerReuse())
        .contains(new ServerConfig.WorkerReuse(3, Duration.ofSeconds(30)));
    assertThat(problems("codemode: {worker_reuse: {max_executions: 1}}\n"))
        .containsExactly("codemode.worker_reuse.max_executions must be between 2 and 10000, got 1");
    assertThat(problems("codemode: {worker_reuse: {max_executions: 5, max_idle_seconds: 0}}\n"))
        .containsExactly(
            "codemode.worker_reuse.max_idle_seconds must be between 1 and 3600, got 0");
    assertThat(problems("codemode: {worker_reuse: {max_runs: 5}}\n").getFirst())
        .contains("unknown key \"codemode.worker_reuse.max_runs\"");
  }

  @Test
  void agentGuidanceIsOnUnlessTurnedOff() throws IOException {
    assertThat(load("log_level: info\n").codemode().agentGuidance()).isTrue();
    assertThat(load("codemode: {agent_guidance: true}\n").codemode().agentGuidance()).isTrue();
    assertThat(load("codemode: {agent_guidance: false}\n").codemode().agentGuidance()).isFalse();
  }

  @Test
  void confirmAndVisibility() throws IOException {
    ServerConfig c =
        load("sandbox: {confirm: [sandbox.delete, instance.exec], visibility: owner}\n");
    assertThat(c.sandbox().confirm()).containsExactly("sandbox.delete", "instance.exec");
    assertThat(c.sandbox().ownerVisibility()).isTrue();
    assertThat(problems("sandbox: {visibility: everyone}\n"))
        .containsExactly("sandbox.visibility must be all or owner, got \"everyone\"");
    assertThat(problems("sandbox: {confirm: [sandbox.delete, sandbox.delete]}\n"))
        .containsExactly("sandbox.confirm lists a capability more than once");
    assertThat(problems("sandbox: {confirm: ['']}\n"))
        .containsExactly("sandbox.confirm entries must be capability ids, got an empty one");
  }

  @Test
  void whatAReloadCanTake() {
    assertThat(ConfigChanges.restartReason("tokens_secret_file"))
        .contains("the token secret is read once at startup");
    assertThat(ConfigChanges.restartReason("codemode.worker_reuse")).isEmpty();
    assertThat(ConfigChanges.restartReason("sandbox.confirm")).isEmpty();
    assertThat(ConfigChanges.restartReason("sandbox.visibility")).isEmpty();
  }

  @Test
  void aMissingSecretFailsStartupNotSilently() {
    assertThatThrownBy(() -> CodemodeSettings.readSecret(dir.resolve("nope")))
        .hasMessageStartingWith("tokens_secret_file " + dir.resolve("nope") + " cannot be read");
  }

  @Test
  void workerIsolationDefaultsToAutoAndTakesTheThreeWords() throws IOException {
    assertThat(load("").codemode().workerIsolation())
        .isEqualTo(dev.agentcompute.codemode.WorkerIsolation.AUTO);
    assertThat(load("codemode: {worker_isolation: bubblewrap}\n").codemode().workerIsolation())
        .isEqualTo(dev.agentcompute.codemode.WorkerIsolation.BUBBLEWRAP);
    assertThat(load("codemode: {worker_isolation: none}\n").codemode().workerIsolation())
        .isEqualTo(dev.agentcompute.codemode.WorkerIsolation.NONE);
    assertThat(problems("codemode: {worker_isolation: chroot}\n"))
        .containsExactly(
            "codemode.worker_isolation must be auto, bubblewrap or none, got \"chroot\"");
  }
}
