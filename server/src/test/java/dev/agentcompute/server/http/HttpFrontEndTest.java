package dev.agentcompute.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.server.auth.BearerTokens;
import dev.agentcompute.server.auth.BearerTokensFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HttpFrontEndTest {
  private static final String INIT =
      """
      {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",
       "capabilities":{},"clientInfo":{"name":"t","version":"0"}}}""";
  private static final String INITIALIZED =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
  private static final String CALL =
      """
      {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"whoami","arguments":{}}}""";

  private final HttpClient client = HttpClient.newHttpClient();
  private HttpFrontEnd server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private void start(Optional<BearerTokens> tokens, StreamableHttpTransport.Settings settings) {
    server =
        HttpFrontEnd.start(
            new ListenAddress("127.0.0.1", 0), tokens, TestTools.whoami(), settings, b -> {});
  }

  private void start(Optional<BearerTokens> tokens) {
    start(tokens, StreamableHttpTransport.Settings.defaults());
  }

  private static BearerTokens aliceAndBob() {
    return BearerTokensFile.parse(
        "{\"alice\":\"tok-alice\",\"bob\":\"tok-bob\"}".getBytes(StandardCharsets.UTF_8));
  }

  private HttpResponse<String> send(String method, String body, Consumer<HttpRequest.Builder> h)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/mcp"))
            .timeout(Duration.ofSeconds(20))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      b.header("Content-Type", "application/json")
          .header("Accept", "application/json, text/event-stream");
    }
    h.accept(b);
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private String initialize(Consumer<HttpRequest.Builder> auth) throws Exception {
    HttpResponse<String> init = send("POST", INIT, auth);
    assertThat(init.statusCode()).isEqualTo(200);
    String id = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    assertThat(
            send(
                    "POST",
                    INITIALIZED,
                    b -> {
                      auth.accept(b);
                      b.header("Mcp-Session-Id", id);
                    })
                .statusCode())
        .isEqualTo(202);
    return id;
  }

  private static Consumer<HttpRequest.Builder> bearer(String token) {
    return b -> b.header("Authorization", "Bearer " + token);
  }

  @Test
  void withoutTokensTheSubjectIsDevelopment() throws Exception {
    start(Optional.empty());
    String id = initialize(b -> {});
    HttpResponse<String> call =
        send(
            "POST",
            CALL,
            b -> b.header("Mcp-Session-Id", id).header("MCP-Protocol-Version", "2025-06-18"));
    assertThat(call.statusCode()).isEqualTo(200);
    assertThat(call.headers().firstValue("Content-Type")).contains("text/event-stream");
    assertThat(call.body()).contains("event: message").contains("\"subject\":\"development\"");
  }

  @Test
  void tokensAuthenticateAndBindSessions() throws Exception {
    start(Optional.of(aliceAndBob()));
    HttpResponse<String> none = send("POST", INIT, b -> {});
    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(none.headers().firstValue("WWW-Authenticate"))
        .get()
        .asString()
        .startsWith("Bearer realm=\"agentcompute\"");
    HttpResponse<String> wrong = send("POST", INIT, bearer("tok-mallory"));
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(wrong.headers().firstValue("WWW-Authenticate"))
        .get()
        .asString()
        .contains("invalid_token");
    assertThat(wrong.body()).doesNotContain("tok-mallory");
    assertThat(
            send("POST", INIT, b -> b.header("Authorization", "Basic dG9rLWFsaWNl")).statusCode())
        .isEqualTo(401);

    String id = initialize(bearer("tok-alice"));
    HttpResponse<String> call =
        send("POST", CALL, b -> bearer("tok-alice").accept(b.header("Mcp-Session-Id", id)));
    assertThat(call.body()).contains("\"subject\":\"alice\"");

    HttpResponse<String> stolen =
        send("POST", CALL, b -> bearer("tok-bob").accept(b.header("Mcp-Session-Id", id)));
    assertThat(stolen.statusCode()).isEqualTo(403);
    assertThat(stolen.body()).contains("session belongs to another identity");
    assertThat(
            send("DELETE", null, b -> bearer("tok-bob").accept(b.header("Mcp-Session-Id", id)))
                .statusCode())
        .isEqualTo(403);

    assertThat(
            send("DELETE", null, b -> bearer("tok-alice").accept(b.header("Mcp-Session-Id", id)))
                .statusCode())
        .isEqualTo(200);
    assertThat(
            send("POST", CALL, b -> bearer("tok-alice").accept(b.header("Mcp-Session-Id", id)))
                .statusCode())
        .isEqualTo(404);
  }

  @Test
  void sessionProtocolAndBodyRules() throws Exception {
    start(
        Optional.empty(),
        new StreamableHttpTransport.Settings(
            Duration.ofMinutes(5), Duration.ofSeconds(15), 2048, Duration.ofSeconds(10)));
    assertThat(send("POST", CALL, b -> {}).statusCode()).isEqualTo(400);
    assertThat(send("POST", CALL, b -> b.header("Mcp-Session-Id", "nope")).statusCode())
        .isEqualTo(404);
    String id = initialize(b -> {});
    HttpResponse<String> version =
        send(
            "POST",
            CALL,
            b -> b.header("Mcp-Session-Id", id).header("MCP-Protocol-Version", "1999-01-01"));
    assertThat(version.statusCode()).isEqualTo(400);
    assertThat(version.body()).contains("Unsupported protocol version: 1999-01-01");
    HttpResponse<String> big =
        send("POST", "{\"x\":\"" + "a".repeat(4096) + "\"}", b -> b.header("Mcp-Session-Id", id));
    assertThat(big.statusCode()).isEqualTo(413);
    HttpResponse<String> text =
        send(
            "POST",
            CALL,
            b -> b.header("Mcp-Session-Id", id).setHeader("Content-Type", "text/plain"));
    assertThat(text.statusCode()).isEqualTo(415);
    HttpResponse<String> accept =
        send(
            "POST",
            CALL,
            b -> b.header("Mcp-Session-Id", id).setHeader("Accept", "application/json"));
    assertThat(accept.statusCode()).isEqualTo(406);
    assertThat(send("POST", "{not json", b -> b.header("Mcp-Session-Id", id)).statusCode())
        .isEqualTo(400);
    assertThat(send("PUT", CALL, b -> b.header("Mcp-Session-Id", id)).statusCode()).isEqualTo(405);
  }

  @Test
  void crossOriginRequestsAreRefused() throws Exception {
    start(Optional.empty());
    int port = server.port();
    assertThat(send("POST", INIT, b -> b.header("Origin", "http://evil.example")).statusCode())
        .isEqualTo(403);
    assertThat(send("POST", INIT, b -> b.header("Sec-Fetch-Site", "cross-site")).statusCode())
        .isEqualTo(403);
    assertThat(send("POST", INIT, b -> b.header("Origin", "http://127.0.0.1:" + port)).statusCode())
        .isEqualTo(200);
  }

  @Test
  void dnsRebindingIsRefusedOnlyWithoutTokens() throws Exception {
    start(Optional.empty());
    assertThat(rawPost("evil.example:" + server.port())).startsWith("HTTP/1.1 403");
    assertThat(rawPost("localhost:" + server.port())).startsWith("HTTP/1.1 200");
    server.close();
    start(Optional.of(aliceAndBob()));
    assertThat(rawPost("mcp.example.com")).startsWith("HTTP/1.1 200");
  }

  @Test
  void idleSessionsExpire() throws Exception {
    start(
        Optional.empty(),
        new StreamableHttpTransport.Settings(
            Duration.ofMillis(300), Duration.ofSeconds(15), 1 << 20, Duration.ofSeconds(10)));
    String id = initialize(b -> {});
    assertThat(server.sessionCount()).isEqualTo(1);
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (server.sessionCount() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(server.sessionCount()).isZero();
    assertThat(send("POST", CALL, b -> b.header("Mcp-Session-Id", id)).statusCode()).isEqualTo(404);
  }

  @Test
  void idleConnectionsAreClosed() throws Exception {
    start(
        Optional.empty(),
        new StreamableHttpTransport.Settings(
            Duration.ofMinutes(5), Duration.ofSeconds(15), 1 << 20, Duration.ofMillis(300)));
    // A connection that never sends a request, and one whose keep-alive wait for the next request
    // outlasts the timeout, are closed by the server.
    try (Socket silent = new Socket("127.0.0.1", server.port())) {
      silent.setSoTimeout(
          20_000); // far above the server's 300 ms: a read that times out here fails the test
      assertThat(RawHttp.readUntilClosed(silent.getInputStream())).isEmpty();
    }
    try (Socket kept = new Socket("127.0.0.1", server.port())) {
      kept.setSoTimeout(20_000);
      byte[] body = INIT.getBytes(StandardCharsets.UTF_8);
      kept.getOutputStream()
          .write(
              ("POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                      + "Accept: application/json, text/event-stream\r\nContent-Length: "
                      + body.length
                      + "\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      kept.getOutputStream().write(body);
      kept.getOutputStream().flush();
      assertThat(RawHttp.readUntilClosed(kept.getInputStream())).startsWith("HTTP/1.1 200");
    }
  }

  @Test
  void aClientThatDisconnectsCancelsItsCall() throws Exception {
    start(
        Optional.empty(),
        new StreamableHttpTransport.Settings(
            Duration.ofMinutes(5), Duration.ofMillis(100), 1 << 20, Duration.ofSeconds(10)));
    TestTools.holding = new java.util.concurrent.CountDownLatch(1);
    TestTools.held = new java.util.concurrent.CompletableFuture<>();
    String id = initialize(b -> {});
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      byte[] body =
          """
          {"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"hold","arguments":{}}}"""
              .getBytes(StandardCharsets.UTF_8);
      socket
          .getOutputStream()
          .write(
              ("POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                      + "Accept: application/json, text/event-stream\r\nMcp-Session-Id: "
                      + id
                      + "\r\nContent-Length: "
                      + body.length
                      + "\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().write(body);
      socket.getOutputStream().flush();
      assertThat(TestTools.holding.await(20, java.util.concurrent.TimeUnit.SECONDS))
          .as("the call started")
          .isTrue();
      assertThat(TestTools.held).isNotDone();
    } // the client goes away with its call in flight
    assertThat(TestTools.held.get(25, java.util.concurrent.TimeUnit.SECONDS))
        .isEqualTo("cancelled");
  }

  @Test
  void aRunningCallSendsKeepAlivesBeforeItsAnswer() throws Exception {
    start(
        Optional.empty(),
        new StreamableHttpTransport.Settings(
            Duration.ofMinutes(5), Duration.ofMillis(100), 1 << 20, Duration.ofSeconds(10)));
    HttpResponse<String> slow = pause(initialize(b -> {}), 600);
    assertThat(slow.statusCode()).isEqualTo(200);
    assertThat(slow.body()).contains(": keepalive").contains("\"done\"");
    assertThat(slow.body().indexOf(": keepalive")).isLessThan(slow.body().indexOf("\"done\""));
  }

  @Test
  void aSlowCallOutlivesTheIdleTimeout() throws Exception {
    start(
        Optional.empty(),
        new StreamableHttpTransport.Settings(
            Duration.ofMinutes(5), Duration.ofSeconds(15), 1 << 20, Duration.ofMillis(300)));
    HttpResponse<String> slow = pause(initialize(b -> {}), 1500);
    assertThat(slow.statusCode()).isEqualTo(200);
    assertThat(slow.body()).contains("\"done\"");
  }

  /** Calls the test tool {@code pause} in {@code session}: it answers after {@code ms}. */
  private HttpResponse<String> pause(String session, long ms) throws Exception {
    return send(
        "POST",
        """
        {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"pause","arguments":{"ms":%d}}}"""
            .formatted(ms),
        b -> b.header("Mcp-Session-Id", session));
  }

  @Test
  void listeningStreamSendsKeepAlivesAndEndsOnDelete() throws Exception {
    // The stream outlives the read timeout many times over: it applies to reading requests only.
    start(
        Optional.empty(),
        new StreamableHttpTransport.Settings(
            Duration.ofMinutes(5), Duration.ofMillis(100), 1 << 20, Duration.ofMillis(200)));
    String id = initialize(b -> {});
    HttpRequest get =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/mcp"))
            .header("Accept", "text/event-stream")
            .header("Mcp-Session-Id", id)
            .GET()
            .build();
    HttpResponse<InputStream> stream = client.send(get, HttpResponse.BodyHandlers.ofInputStream());
    assertThat(stream.statusCode()).isEqualTo(200);
    try (InputStream in = stream.body()) {
      String seen = "";
      while (seen.split(": keepalive", -1).length - 1 < 10) { // about 1 s: five read timeouts

        byte[] chunk = new byte[256];
        int n = in.read(chunk);
        assertThat(n).isPositive();
        seen += new String(chunk, 0, n, StandardCharsets.UTF_8);
      }
      assertThat(send("DELETE", null, b -> b.header("Mcp-Session-Id", id)).statusCode())
          .isEqualTo(200);
      while (in.read() >= 0) {
        // drain until the server ends the stream
      }
    }
  }

  /** A POST with a hand-written Host header (java.net.http refuses to set one). */
  private String rawPost(String host) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      byte[] body = INIT.getBytes(StandardCharsets.UTF_8);
      String auth = host.startsWith("mcp.") ? "Authorization: Bearer tok-alice\r\n" : "";
      String head =
          "POST /mcp HTTP/1.1\r\nHost: "
              + host
              + "\r\n"
              + auth
              + "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
              + "Content-Length: "
              + body.length
              + "\r\nConnection: close\r\n\r\n";
      OutputStream out = socket.getOutputStream();
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      out.write(body);
      out.flush();
      // Only the status line matters; the server may keep the connection open.
      StringBuilder line = new StringBuilder();
      InputStream in = socket.getInputStream();
      for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
        line.append((char) c);
      }
      return line.toString();
    }
  }
}
