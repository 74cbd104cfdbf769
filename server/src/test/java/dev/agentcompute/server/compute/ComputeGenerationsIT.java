package dev.agentcompute.server.compute;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.server.LocalStack;
import dev.agentcompute.server.config.CatalogueCheck;
import dev.agentcompute.server.config.ConfigLoader;
import dev.agentcompute.server.config.ConfigReloader;
import dev.agentcompute.server.config.LiveApplier;
import dev.agentcompute.server.config.LoadedConfig;
import dev.agentcompute.server.errors.ConfigException;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Live reconfiguration of compute against the real incusd: a prepared generation replaces the one
 * in force only when no tool call is in flight, and new calls then see the new policy.
 */
class ComputeGenerationsIT {
  private static final Optional<String> LOCAL = Optional.of("local");

  @TempDir Path dir;
  private ComputeGenerations generations;
  private IncusClient incus;
  private Path file;

  private LoadedConfig write(int maxTtl) throws Exception {
    Files.writeString(
        file,
        "incus: {url: \"unix://"
            + LocalStack.incusSocket()
            + "\", pool: default,"
            + " host: none}\nsandbox: {default_network_kind: bridge, max_ttl_minutes: "
            + maxTtl
            + "}\nscreenshots: {base_url: 'http://127.0.0.1:8081'}\n");
    return ConfigLoader.load(file);
  }

  @BeforeEach
  void start() throws Exception {
    Path root = LocalStack.root();
    Files.createDirectories(dir.resolve("images"));
    Files.copy(root.resolve("images/catalog.yaml"), dir.resolve("images/catalog.yaml"));
    file = dir.resolve("agentcompute.yaml");
    LoadedConfig loaded = write(1440);
    incus = IncusClient.unixSocket(LocalStack.incusSocket()).build();
    generations =
        ComputeGenerations.start(
            loaded.config(),
            ConfigReloader.validateCatalogue(loaded.config(), CatalogueCheck.IMAGE_CATALOG),
            new Backends(incus, java.util.Optional.empty()));
  }

  @AfterEach
  void stop() {
    if (generations != null) {
      generations.close();
    }
    if (incus != null) {
      incus.close();
    }
  }

  private static McpSyncServerExchange exchange() {
    return new McpSyncServerExchange(null) {
      @Override
      public McpTransportContext transportContext() {
        return McpTransportContext.EMPTY;
      }

      // execute asks whether the client offers elicitation (for confirmations): this one does not.
      @Override
      public McpSchema.ClientCapabilities getClientCapabilities() {
        return McpSchema.ClientCapabilities.builder().build();
      }
    };
  }

  private McpSchema.CallToolResult execute(String source) {
    return generations.call(
        LOCAL,
        "execute",
        exchange(),
        new McpSchema.CallToolRequest("execute", Map.of("source", source), null));
  }

  @Test
  void aNewPolicyTakesEffectOnceNoCallIsInFlight() throws Exception {
    ComputeGeneration first = generations.current();
    assertThat(first.number()).isEqualTo(1);
    assertThat(first.capabilities()).isPositive();
    assertThat(generations.readiness().check().up()).isTrue();

    // A call in flight (a fresh worker JVM takes well over the moment below to start).
    CompletableFuture<McpSchema.CallToolResult> inFlight =
        CompletableFuture.supplyAsync(
            () -> execute("def main():\n    return len(image.list()[\"items\"])\n"));
    Thread.sleep(300);
    LoadedConfig next = write(600);
    String catalogue =
        ConfigReloader.validateCatalogue(next.config(), CatalogueCheck.IMAGE_CATALOG);
    LiveApplier.Prepared prepared = generations.prepare(next.config(), catalogue);
    prepared.commit();
    if (!inFlight.isDone()) {
      assertThat(generations.current()).isSameAs(first);
      assertThat(generations.swapPending()).isTrue();
    }
    McpSchema.CallToolResult result = inFlight.get();
    assertThat(result.isError()).as(String.valueOf(result.content())).isFalse();

    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (generations.current() == first && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(generations.current().number()).isEqualTo(2);
    assertThat(generations.current().runtime().compute().config().ttl().maxTtl())
        .isEqualTo(Duration.ofMinutes(600));
    assertThat(generations.swapPending()).isFalse();
    McpSchema.CallToolResult after = execute("def main():\n    return 7\n");
    assertThat(after.isError()).isFalse();
  }

  @Test
  void nothingIsRebuiltWhenComputeInputsDidNotChange() throws Exception {
    LoadedConfig same = write(1440);
    String catalogue =
        ConfigReloader.validateCatalogue(same.config(), CatalogueCheck.IMAGE_CATALOG);
    assertThat(generations.prepare(same.config(), catalogue))
        .isSameAs(LiveApplier.Prepared.NOTHING);
  }

  @Test
  void aCatalogueAliasMissingInIncusIsRefused() throws Exception {
    Files.writeString(
        dir.resolve("images/catalog.yaml"),
        Files.readString(dir.resolve("images/catalog.yaml"))
            .replace(
                "alias: busybox", "alias: no-such-alias-" + Long.toHexString(System.nanoTime())));
    LoadedConfig next = write(1440);
    String catalogue =
        ConfigReloader.validateCatalogue(next.config(), CatalogueCheck.IMAGE_CATALOG);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> generations.prepare(next.config(), catalogue))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("compute: ");
    assertThat(generations.current().number()).isEqualTo(1);
  }
}
