package dev.agentcompute.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.server.http.HttpFrontEnd;
import dev.agentcompute.server.http.ListenAddress;
import dev.agentcompute.server.http.StreamableHttpTransport;
import dev.agentcompute.server.mcp.McpServerAssembly;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Shutdown lets a request in flight finish while refusing new work. */
class GracefulDrainTest {
  @Test
  void inFlightCallFinishesAndNewCallsAreRefusedDuringDrain() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    var json = McpJsonDefaults.getMapper();
    var slow =
        McpServerFeatures.SyncToolSpecification.builder()
            .tool(
                McpSchema.Tool.builder()
                    .name("slow")
                    .description("sleeps")
                    .inputSchema(json, "{\"type\":\"object\"}")
                    .build())
            .callHandler(
                (exchange, request) -> {
                  started.countDown();
                  try {
                    Thread.sleep(1500);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                  return McpSchema.CallToolResult.builder().addTextContent("done").build();
                })
            .build();
    McpServerAssembly assembly =
        (spec, fixed) ->
            spec.serverInfo("t", "0")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .tools(slow)
                .build();
    HttpFrontEnd server =
        HttpFrontEnd.start(
            new ListenAddress("127.0.0.1", 0),
            Optional.empty(),
            assembly,
            StreamableHttpTransport.Settings.defaults(),
            b -> {});
    HttpClient client = HttpClient.newHttpClient();
    URI uri = URI.create("http://127.0.0.1:" + server.port() + "/mcp");
    HttpResponse<String> init =
        client.send(
            post(
                uri,
                null,
                """
        {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",
         "capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"""),
            HttpResponse.BodyHandlers.ofString());
    String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    CompletableFuture<HttpResponse<String>> inFlight =
        client.sendAsync(
            post(
                uri,
                session,
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"slow\"}}"),
            HttpResponse.BodyHandlers.ofString());
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

    CompletableFuture<Void> drain =
        CompletableFuture.runAsync(() -> server.drainAndStop(Duration.ofSeconds(10)));
    Thread.sleep(200);
    HttpResponse<String> refused =
        client.send(
            post(uri, session, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}"),
            HttpResponse.BodyHandlers.ofString());
    assertThat(refused.statusCode()).isEqualTo(503);

    HttpResponse<String> finished = inFlight.get(10, TimeUnit.SECONDS);
    assertThat(finished.statusCode()).isEqualTo(200);
    assertThat(finished.body()).contains("done");
    drain.get(15, TimeUnit.SECONDS);
  }

  private static HttpRequest post(URI uri, String session, String body) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (session != null) {
      b.header("Mcp-Session-Id", session);
    }
    return b.build();
  }
}
