package dev.agentcompute.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.server.errors.ConfigException;
import dev.agentcompute.server.http.HttpFrontEnd;
import dev.agentcompute.server.http.ListenAddress;
import dev.agentcompute.server.http.Operations;
import dev.agentcompute.server.http.StreamableHttpTransport;
import dev.agentcompute.server.http.TestTools;
import dev.agentcompute.server.observe.LogLevel;
import dev.agentcompute.server.observe.ReadinessCheck;
import dev.agentcompute.server.observe.ServerMetrics;
import dev.agentcompute.server.observe.Version;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigReloaderTest {
  private static final String CATALOGUE =
      """
      schema_version: 1
      images:
        - name: busybox
          os: busybox
          version: "1"
          kind: container
          kinds: [container]
          alias: busybox
          cpus: 1
          memory_mb: 128
          disk_gb: 1
      """;

  @TempDir Path dir;
  private final RecordingApplier applier = new RecordingApplier();
  private Path file;
  private LiveConfig live;
  private ConfigReloader reloader;

  private static String config(String pool, int maxTtl, String extra) {
    return "incus: {remote: local, pool: "
        + pool
        + ", ovn_uplink: uplink0}\n"
        + "sandbox: {max_ttl_minutes: "
        + maxTtl
        + ", pin_identities: [alice]}\n"
        + "screenshots: {base_url: 'http://127.0.0.1:8081'}\n"
        + extra;
  }

  @BeforeEach
  void start() throws IOException {
    Files.createDirectories(dir.resolve("images"));
    Files.writeString(dir.resolve("images/catalog.yaml"), CATALOGUE);
    file = dir.resolve("agentcompute.yaml");
    Files.writeString(file, config("default", 1440, ""));
    LoadedConfig loaded = ConfigLoader.load(file);
    String catalogue =
        ConfigReloader.validateCatalogue(loaded.config(), CatalogueCheck.IMAGE_CATALOG);
    live = new LiveConfig(loaded, catalogue, Instant.now());
    reloader =
        new ConfigReloader(
            live,
            CatalogueCheck.IMAGE_CATALOG,
            List.of(applier),
            ServerMetrics.inMemory(),
            Duration.ofHours(1),
            Clock.systemUTC());
  }

  @Test
  void nothingChangedMeansNothingHappens() {
    assertThat(reloader.reloadNow()).isFalse();
  }

  /** Records what it was asked to prepare and commit; refuses when told to. */
  static final class RecordingApplier implements LiveApplier {
    final List<String> events = new ArrayList<>();
    String refuse;

    @Override
    public Prepared prepare(ServerConfig next, String catalogueDigest) {
      events.add(
          "prepare ttl="
              + next.sandbox().maxTtl().toMinutes()
              + " pins="
              + next.sandbox().pinIdentities()
              + " pool="
              + next.incus().pool());
      if (refuse != null) {
        throw new ConfigException("compute: " + refuse);
      }
      return new Prepared() {
        @Override
        public void commit() {
          events.add("commit");
        }

        @Override
        public void abandon() {
          events.add("abandon");
        }
      };
    }
  }

  @Test
  void aValidEditTakesEffectWithoutRestart() throws IOException {
    String before = live.current().source().digest();
    LiveConfig.State[] notified = new LiveConfig.State[1];
    live.subscribe(s -> notified[0] = s);
    Files.writeString(
        file, config("default", 600, "log_level: debug\n").replace("[alice]", "[alice, bob]"));
    assertThat(reloader.reloadNow()).isTrue();
    LiveConfig.State s = live.current();
    assertThat(s.config().sandbox().maxTtl()).isEqualTo(Duration.ofMinutes(600));
    assertThat(s.config().sandbox().pinIdentities()).containsExactly("alice", "bob");
    assertThat(s.config().logLevel()).contains(LogLevel.DEBUG);
    assertThat(s.pending()).isEmpty();
    assertThat(s.rejected()).isEmpty();
    assertThat(s.source().digest()).isNotEqualTo(before);
    assertThat(notified[0]).isSameAs(s);
    assertThat(applier.events)
        .containsExactly("prepare ttl=600 pins=[alice, bob] pool=default", "commit");
    assertThat(reloader.reloadNow()).isFalse();
  }

  @Test
  void aVersionAnApplierCannotPrepareIsRefused() throws IOException {
    LiveConfig.State before = live.current();
    applier.refuse = "catalogue alias \"busybox\" is missing in Incus";
    Files.writeString(file, config("default", 600, ""));
    assertThat(reloader.reloadNow()).isTrue();
    assertThat(live.current().config()).isEqualTo(before.config());
    assertThat(live.current().rejected())
        .get()
        .satisfies(
            r ->
                assertThat(r.problems())
                    .containsExactly("compute: catalogue alias \"busybox\" is missing in Incus"));
    assertThat(applier.events).containsExactly("prepare ttl=600 pins=[alice] pool=default");
  }

  @Test
  void anInvalidEditIsRefusedAndTheOldVersionKeepsServing() throws IOException {
    LiveConfig.State before = live.current();
    Files.writeString(file, config("default", 1440, "sandbox_typo: 1\n"));
    assertThat(reloader.reloadNow()).isTrue();
    LiveConfig.State s = live.current();
    assertThat(s.config()).isEqualTo(before.config());
    assertThat(s.source()).isEqualTo(before.source());
    assertThat(s.rejected())
        .get()
        .satisfies(
            r -> {
              assertThat(r.problems())
                  .containsExactly("decode configuration: unknown key \"sandbox_typo\"");
              assertThat(r.digest()).isNotEqualTo(before.source().digest());
            });
    assertThat(applier.events).isEmpty();
    // Fixing the file clears the refusal.
    Files.writeString(file, config("default", 700, "log_level: error\n"));
    assertThat(reloader.reloadNow()).isTrue();
    assertThat(live.current().rejected()).isEmpty();
    assertThat(live.current().config().logLevel()).contains(LogLevel.ERROR);
    assertThat(live.current().config().sandbox().maxTtl()).isEqualTo(Duration.ofMinutes(700));
  }

  @Test
  void aRestartOnlyChangeIsPendingWhileSafeChangesApply() throws IOException {
    Files.writeString(file, config("fast-ssd", 1440, "log_level: debug\n"));
    assertThat(reloader.reloadNow()).isTrue();
    LiveConfig.State s = live.current();
    assertThat(s.config().incus().pool()).isEqualTo("default");
    assertThat(s.config().logLevel()).contains(LogLevel.DEBUG);
    assertThat(s.pending()).extracting(LiveConfig.Pending::key).containsExactly("incus.pool");
    assertThat(s.pending().getFirst().reason()).contains("Incus connection");
    // Appliers see the values in force: the startup pool, not the pending one.
    assertThat(applier.events)
        .containsExactly("prepare ttl=1440 pins=[alice] pool=default", "commit");
    // Reverting the restart-only key clears the pending entry.
    Files.writeString(file, config("default", 1440, "log_level: debug\n"));
    reloader.reloadNow();
    assertThat(live.current().pending()).isEmpty();
  }

  @Test
  void anInvalidCatalogueRefusesTheWholeVersion() throws IOException {
    Files.writeString(dir.resolve("images/catalog.yaml"), "schema_version: 2\nimages: []\n");
    assertThat(reloader.reloadNow()).isTrue();
    assertThat(live.current().rejected())
        .get()
        .satisfies(
            r ->
                assertThat(r.problems().getFirst())
                    .startsWith("images_file ")
                    .contains("schema_version"));
    Files.writeString(
        dir.resolve("images/catalog.yaml"), CATALOGUE.replace("memory_mb: 128", "memory_mb: 256"));
    assertThat(reloader.reloadNow()).isTrue();
    assertThat(live.current().rejected()).isEmpty();
    assertThat(live.current().pending()).isEmpty();
    assertThat(live.current().catalogueDigest())
        .isEqualTo(Digests.sha256Hex(Files.readAllBytes(dir.resolve("images/catalog.yaml"))));
  }

  @Test
  void healthShowsDigestCommitPendingAndRefusal() throws Exception {
    String commit = "89abcdef0123456789abcdef0123456789abcdef";
    Files.createDirectories(dir.resolve(".git"));
    Files.writeString(dir.resolve(".git/HEAD"), commit + "\n");
    Operations ops = new Operations(live, new Version("t", "none", "unknown"), Instant.now());
    ops.addReadinessCheck(
        new ReadinessCheck() {
          @Override
          public String name() {
            return "incus";
          }

          @Override
          public Result check() {
            return Result.down("connection refused");
          }
        });
    try (HttpFrontEnd front =
        HttpFrontEnd.start(
            new ListenAddress("127.0.0.1", 0),
            Optional.empty(),
            TestTools.whoami(),
            StreamableHttpTransport.Settings.defaults(),
            b -> b.addFeature(ops.feature()))) {
      Files.writeString(file, config("fast-ssd", 900, ""));
      reloader.reloadNow();
      HttpClient http = HttpClient.newHttpClient();
      HttpResponse<String> health =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + front.port() + "/health"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(health.body())
          .contains("\"digest\":\"sha256:" + live.current().source().digest() + "\"")
          .contains("\"commit\":\"" + commit + "\"")
          .contains("incus.pool: the Incus connection is opened once at startup")
          .contains("connection refused");
      assertThat(health.statusCode()).isEqualTo(503);
      HttpResponse<String> liveness =
          http.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + front.port() + "/health/live"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(liveness.statusCode()).isEqualTo(200);

      Files.writeString(file, "incus: [broken\n");
      reloader.reloadNow();
      String after =
          http.send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + front.port() + "/health/live"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      assertThat(after).contains("rejected_problems").contains("decode configuration");
    }
  }
}
