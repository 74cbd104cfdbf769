package dev.agentcompute.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.incus.IncusIdentity;
import dev.agentcompute.server.config.CatalogueCheck;
import dev.agentcompute.server.config.ConfigLoader;
import dev.agentcompute.server.config.ConfigReloader;
import dev.agentcompute.server.config.LiveConfig;
import dev.agentcompute.server.config.LoadedConfig;
import dev.agentcompute.server.observe.ServerMetrics;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code validate} refuses every configuration startup would refuse before contacting Incus, with
 * the same messages startup prints, and a reload refuses them too.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ValidateTest {
  private static final String SHOTS = "screenshots: {base_url: \"http://127.0.0.1:8081\"}\n";
  private static final String LOCAL =
      "incus: {remote: local, pool: default, ovn_uplink: uplink0}\n";

  @TempDir Path dir;
  private final Map<String, String> env = new HashMap<>();
  private ByteArrayOutputStream out;
  private ByteArrayOutputStream err;

  @BeforeEach
  void catalogue() throws IOException {
    Files.createDirectories(dir.resolve("images"));
    Files.writeString(dir.resolve("images/catalog.yaml"), "schema_version: 1\nimages: []\n");
    // No Incus CLI configuration unless a test writes one.
    env.put("INCUS_CONF", dir.resolve("no-incus-conf").toString());
  }

  private int run(String... args) {
    out = new ByteArrayOutputStream();
    err = new ByteArrayOutputStream();
    return Commands.run(
        List.of(args),
        env,
        new ByteArrayInputStream(new byte[0]),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private Path write(String name, String content) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, content);
    return file;
  }

  /** validate's problems (exit 1), without the "FILE: " prefix. */
  private List<String> refused(Path file) {
    assertThat(run("validate", "--config", file.toString())).isEqualTo(1);
    assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    return err.toString(StandardCharsets.UTF_8)
        .lines()
        .peek(l -> assertThat(l).startsWith(file + ": "))
        .map(l -> l.substring(file.toString().length() + 2))
        .toList();
  }

  /** Startup's problems (exit 1, before any listener or Incus connection). */
  private List<String> startupRefuses(Path file) {
    assertThat(run("http", "--config", file.toString(), "--addr", "127.0.0.1:0")).isEqualTo(1);
    return err.toString(StandardCharsets.UTF_8)
        .lines()
        .filter(l -> l.startsWith("agentcompute-server: "))
        .map(l -> l.substring("agentcompute-server: ".length()))
        .toList();
  }

  private void valid(Path file) {
    assertThat(run("validate", "--config", file.toString()))
        .as(err.toString(StandardCharsets.UTF_8))
        .isZero();
  }

  private Path pem(String name, String content) throws IOException {
    return write(name, content);
  }

  @Test
  void anHttpsUrlWithoutClientCertificateOrKeyIsRefusedAsAtStartup() throws IOException {
    Path file =
        write(
            "a.yaml",
            "incus: {url: \"https://127.0.0.1:8443\", pool: default, ovn_uplink: uplink0}\n"
                + SHOTS);
    List<String> problems = refused(file);
    assertThat(problems)
        .singleElement()
        .asString()
        .startsWith(
            "incus.url https://127.0.0.1:8443 needs incus.client_cert and incus.client_key");
    assertThat(startupRefuses(file)).isEqualTo(problems);
  }

  @Test
  void garbagePemsAreRefused() throws IOException {
    pem("c.crt", "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n");
    pem("c.key", "not a key at all\n");
    Path file =
        write(
            "g.yaml",
            "incus: {url: \"https://127.0.0.1:8443\", pool: default, ovn_uplink: uplink0,"
                + " client_cert: c.crt, client_key: c.key}\n"
                + SHOTS);
    assertThat(refused(file))
        .singleElement()
        .asString()
        .startsWith("incus.client_cert and incus.client_key cannot be loaded: ");
  }

  @Test
  void aKeyOfAnotherCertificateIsRefusedAndAMatchingPairPasses() throws IOException {
    IncusIdentity one = IncusIdentity.generate("one");
    IncusIdentity two = IncusIdentity.generate("two");
    pem("one.crt", one.certificatePem());
    pem("one.key", one.privateKeyPem());
    pem("two.key", two.privateKeyPem());
    String incus =
        "incus: {url: \"https://127.0.0.1:8443\", pool: default, ovn_uplink: uplink0, client_cert:"
            + " one.crt,";
    Path mismatched = write("m.yaml", incus + " client_key: two.key}\n" + SHOTS);
    assertThat(refused(mismatched))
        .containsExactly(
            "incus.client_cert and incus.client_key: the private key does not belong to the"
                + " certificate (use the key the certificate was issued for)");
    valid(write("ok.yaml", incus + " client_key: one.key}\n" + SHOTS));
    pem("server.crt", "garbage");
    assertThat(
            refused(
                write(
                    "s.yaml", incus + " client_key: one.key, server_cert: server.crt}\n" + SHOTS)))
        .singleElement()
        .asString()
        .startsWith("incus.server_cert cannot be loaded: ");
  }

  @Test
  void anUnknownIncusRemoteIsRefusedNamingTheKnownOnes() throws IOException {
    Path conf = Files.createDirectories(dir.resolve("incus-conf"));
    Files.writeString(
        conf.resolve("config.yml"),
        "default-remote: local\nremotes:\n  local: {addr: \"unix://\"}\n"
            + "  lab: {addr: \"unix:///run/incus/unix.socket\"}\n");
    env.put("INCUS_CONF", conf.toString());
    Path file =
        write("r.yaml", "incus: {remote: labb, pool: default, ovn_uplink: uplink0}\n" + SHOTS);
    List<String> problems = refused(file);
    assertThat(problems)
        .containsExactly(
            "incus.remote \"labb\" is not a remote in "
                + conf.resolve("config.yml")
                + " (its remotes: local, lab)");
    assertThat(startupRefuses(file)).isEqualTo(problems);
    valid(write("lab.yaml", "incus: {remote: lab, pool: default, ovn_uplink: uplink0}\n" + SHOTS));
  }

  @Test
  void aRemoteWithoutAnIncusCliConfigurationIsRefused() throws IOException {
    assertThat(
            refused(
                write(
                    "n.yaml",
                    "incus: {remote: lab, pool: default, ovn_uplink: uplink0}\n" + SHOTS)))
        .containsExactly(
            "incus.remote \"lab\": cannot read the Incus CLI configuration "
                + dir.resolve("no-incus-conf/config.yml"));
  }

  @Test
  void anUnknownConfirmIdIsRefusedWithTheNearestName() throws IOException {
    Path file =
        write(
            "c.yaml", LOCAL + SHOTS + "sandbox: {confirm: [sandbox.delete, sandbox.delet, zzz]}\n");
    List<String> problems = refused(file);
    assertThat(problems)
        .containsExactly(
            "sandbox.confirm: \"sandbox.delet\" is not a capability id (did you mean"
                + " \"sandbox.delete\"?)",
            "sandbox.confirm: \"zzz\" is not a capability id (describe_api lists them, e.g. \""
                + problems.get(1).replaceAll(".*e\\.g\\. \"([^\"]+)\"\\)$", "$1")
                + "\")");
    assertThat(startupRefuses(file)).isEqualTo(problems);
  }

  @Test
  void anUnparsableScreenshotsListenIsRefusedNamingTheKey() throws IOException {
    Path file =
        write(
            "l.yaml",
            LOCAL + "screenshots: {base_url: \"http://127.0.0.1:8081\", listen: notaport}\n");
    List<String> problems = refused(file);
    assertThat(problems)
        .containsExactly("screenshots.listen: invalid listen address \"notaport\": use host:port");
    assertThat(startupRefuses(file)).isEqualTo(problems);
    assertThat(
            refused(
                write(
                    "l2.yaml",
                    LOCAL
                        + "screenshots: {base_url: \"http://127.0.0.1:8081\","
                        + " listen: \"127.0.0.1:99999\"}\n")))
        .containsExactly(
            "screenshots.listen: invalid listen address \"127.0.0.1:99999\": port out of range");
  }

  @Test
  void aScreenshotsDirThatCannotBeADirectoryIsRefused() throws IOException {
    write("plain-file", "x");
    Path file =
        write(
            "d.yaml",
            LOCAL + "screenshots: {base_url: \"http://127.0.0.1:8081\", dir: plain-file/shots}\n");
    assertThat(refused(file))
        .containsExactly(
            "screenshots.dir "
                + dir.resolve("plain-file/shots")
                + " cannot be used: "
                + dir.resolve("plain-file")
                + " is not a directory");
  }

  @Test
  void aTokenSecretOfTheWrongSizeIsRefused() throws IOException {
    write("secret", "too short\n");
    assertThat(refused(write("t.yaml", LOCAL + SHOTS + "tokens_secret_file: secret\n")))
        .containsExactly(
            "tokens_secret_file "
                + dir.resolve("secret")
                + " must hold exactly 32 bytes or 64 hex digits, it holds 10 bytes");
  }

  @Test
  void everyProblemIsReportedAtOnce() throws IOException {
    Path file =
        write(
            "all.yaml",
            "incus: {url: \"https://h:8443\", pool: default, ovn_uplink: uplink0}\n"
                + "screenshots: {base_url: \"http://127.0.0.1:8081\", listen: notaport}\n"
                + "sandbox: {confirm: [sandbox.delet]}\n");
    assertThat(refused(file)).hasSize(3);
  }

  @Test
  void yamlSyntaxErrorsGiveFileLineAndColumn() throws IOException {
    Path file = write("y.yaml", LOCAL + SHOTS + "log_level: info: debug\n");
    List<String> problems = refused(file);
    assertThat(problems)
        .containsExactly(
            "decode configuration: " + file + ":3:16: mapping values are not allowed here");
    Path open = write("open.yaml", LOCAL + SHOTS + "sandbox:\n  confirm: [a, b\n");
    assertThat(refused(open))
        .singleElement()
        .asString()
        .startsWith("decode configuration: " + open + ":5:1: ")
        .contains("expected ',' or ']'");
    Path tab = write("tab.yaml", LOCAL + "screenshots:\n\tbase_url: x\n");
    assertThat(refused(tab))
        .singleElement()
        .asString()
        .startsWith("decode configuration: " + tab + ":3:");
    assertThat(startupRefuses(file)).isEqualTo(problems);
  }

  @Test
  void tomlSyntaxErrorsGiveFileLineAndColumn() throws IOException {
    Path file =
        write(
            "s.toml",
            "[incus]\nremote = \"local\"\npool = \"default\"\n[screenshots\nbase_url = \"x\"\n");
    assertThat(refused(file))
        .singleElement()
        .asString()
        .matches(
            java.util.regex.Pattern.quote("decode configuration: " + file + ":") + "4:\\d+: .+");
  }

  @Test
  void aValidConfigurationPasses() throws IOException {
    valid(write("fine.yaml", LOCAL + SHOTS + "sandbox: {confirm: [sandbox.delete]}\n"));
  }

  @Test
  void aReloadRunsTheSameChecks() throws Exception {
    Path file = write("live.yaml", LOCAL + SHOTS);
    LoadedConfig loaded = ConfigLoader.load(file);
    String catalogue =
        ConfigReloader.validateCatalogue(loaded.config(), CatalogueCheck.IMAGE_CATALOG);
    LiveConfig live = new LiveConfig(loaded, catalogue, Instant.now());
    try (ConfigReloader reloader =
        new ConfigReloader(
            live,
            CatalogueCheck.IMAGE_CATALOG,
            new Preflight(env),
            List.of(),
            ServerMetrics.inMemory(),
            Duration.ofMillis(50),
            Clock.systemUTC())) {
      reloader.start();
      Files.writeString(file, LOCAL + SHOTS + "sandbox: {confirm: [sandbox.delet]}\n");
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (live.current().rejected().isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(live.current().rejected())
          .map(LiveConfig.Rejected::problems)
          .contains(
              List.of(
                  "sandbox.confirm: \"sandbox.delet\" is not a capability id (did you mean"
                      + " \"sandbox.delete\"?)"));
      assertThat(live.current().config().sandbox().confirm()).isEmpty();
    }
  }
}
