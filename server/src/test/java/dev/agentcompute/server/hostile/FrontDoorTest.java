package dev.agentcompute.server.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.server.auth.BearerTokens;
import dev.agentcompute.server.auth.BearerTokensFile;
import dev.agentcompute.server.http.FrontDoor;
import dev.agentcompute.server.http.HttpFrontEnd;
import dev.agentcompute.server.http.ListenAddress;
import dev.agentcompute.server.http.RawHttp;
import dev.agentcompute.server.http.StreamableHttpTransport;
import dev.agentcompute.server.http.TestTools;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A hostile client at the HTTP front door (docs/security.md): a session flood, a slow-header
 * client, a connection flood and a request flood are each bounded, and each refusal names its limit
 * and value. Every test is bounded by a timeout, so a missing protection fails instead of hanging.
 */
@Timeout(60)
class FrontDoorTest {
  private static final String INIT =
      """
      {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",
       "capabilities":{},"clientInfo":{"name":"t","version":"0"}}}""";

  private final HttpClient client = HttpClient.newHttpClient();
  private final List<Socket> sockets = new ArrayList<>();
  private HttpFrontEnd server;

  @AfterEach
  void stop() throws IOException {
    for (Socket s : sockets) {
      s.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private void start(FrontDoor limits, Duration headerTimeout) {
    BearerTokens tokens =
        BearerTokensFile.parse(
            "{\"alice\":\"tok-alice\",\"bob\":\"tok-bob\"}".getBytes(StandardCharsets.UTF_8));
    server =
        HttpFrontEnd.start(
            new ListenAddress("127.0.0.1", 0),
            Optional.of(tokens),
            TestTools.whoami(),
            StreamableHttpTransport.Settings.defaults().with(limits, headerTimeout),
            b -> {});
  }

  private HttpRequest.Builder request(String token) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/mcp"))
        .timeout(Duration.ofSeconds(30))
        .header("Authorization", "Bearer " + token);
  }

  private HttpResponse<String> initialize(String token) throws Exception {
    return client.send(
        request(token)
            .POST(HttpRequest.BodyPublishers.ofString(INIT))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private String session(String token) throws Exception {
    HttpResponse<String> res = initialize(token);
    assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
    return res.headers().firstValue("Mcp-Session-Id").orElseThrow();
  }

  private HttpResponse<String> ping(String token, String session) throws Exception {
    return client.send(
        request(token)
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}"))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("Mcp-Session-Id", session)
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Opens the session's listening stream and returns once its headers arrived (in use). */
  private void listen(String token, String session) throws Exception {
    HttpResponse<InputStream> res =
        client
            .sendAsync(
                request(token)
                    .GET()
                    .header("Accept", "text/event-stream")
                    .header("Mcp-Session-Id", session)
                    .build(),
                HttpResponse.BodyHandlers.ofInputStream())
            .get();
    assertThat(res.statusCode()).isEqualTo(200);
    res.body().read(); // the ": stream open" comment: the server has registered the stream
  }

  @Test
  void aSessionFloodKeepsOnlyTheMostRecentSessionsOfThatIdentity() throws Exception {
    start(new FrontDoor(10, 2, 64, 16), Duration.ofSeconds(10));
    List<String> flood = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      flood.add(session("tok-alice"));
    }

    assertThat(server.sessionCount()).isEqualTo(2);
    assertThat(ping("tok-alice", flood.getFirst()).statusCode()).isEqualTo(404);
    assertThat(ping("tok-alice", flood.getLast()).statusCode()).isEqualTo(200);
    assertThat(ping("tok-alice", flood.get(flood.size() - 2)).statusCode()).isEqualTo(200);
  }

  @Test
  void oneIdentitysFloodCannotPushOutAnotherIdentitysSessions() throws Exception {
    start(new FrontDoor(10, 2, 64, 16), Duration.ofSeconds(10));
    String bobs = session("tok-bob");
    for (int i = 0; i < 20; i++) {
      session("tok-alice");
    }

    assertThat(ping("tok-bob", bobs).statusCode()).isEqualTo(200);
  }

  @Test
  void pastTheTotalCapTheLeastRecentlyUsedIdleSessionGoesFirst() throws Exception {
    start(new FrontDoor(3, 2, 64, 16), Duration.ofSeconds(10));
    String alicesOld = session("tok-alice");
    String alicesNew = session("tok-alice");
    String bobs = session("tok-bob");
    // Alice uses both of hers, so bob's is now the least recently used.
    assertThat(ping("tok-alice", alicesOld).statusCode()).isEqualTo(200);
    assertThat(ping("tok-alice", alicesNew).statusCode()).isEqualTo(200);

    String bobsSecond = session("tok-bob");

    assertThat(server.sessionCount()).isEqualTo(3);
    assertThat(ping("tok-bob", bobs).statusCode()).isEqualTo(404);
    assertThat(ping("tok-bob", bobsSecond).statusCode()).isEqualTo(200);
    assertThat(ping("tok-alice", alicesOld).statusCode()).isEqualTo(200);
  }

  @Test
  void whenEverySessionOfTheIdentityIsInUseANewOneIsRefusedNamingTheLimit() throws Exception {
    start(new FrontDoor(10, 2, 64, 16), Duration.ofSeconds(10));
    listen("tok-alice", session("tok-alice"));
    listen("tok-alice", session("tok-alice"));

    HttpResponse<String> refused = initialize("tok-alice");

    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.body())
        .contains("\"error\"")
        .contains("identity \\\"alice\\\" already has 2 MCP sessions in use")
        .contains("http.max_sessions_per_identity = 2");
    assertThat(server.sessionCount()).isEqualTo(2);
  }

  @Test
  void whenEverySessionIsInUseANewOneIsRefusedNamingTheTotalLimit() throws Exception {
    start(new FrontDoor(2, 2, 64, 16), Duration.ofSeconds(10));
    listen("tok-alice", session("tok-alice"));
    listen("tok-bob", session("tok-bob"));

    HttpResponse<String> refused = initialize("tok-bob");

    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(refused.body()).contains("http.max_sessions = 2");
  }

  @Test
  void aClientThatTricklesItsHeadersIsCutOffAfterTheHeaderTimeout() throws Exception {
    start(FrontDoor.defaults(), Duration.ofSeconds(1));
    Socket socket = new Socket("127.0.0.1", server.port());
    sockets.add(socket);
    socket.setSoTimeout(30_000);
    OutputStream out = socket.getOutputStream();
    out.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
    out.flush();
    long started = System.nanoTime();
    // One header byte every 100 ms: each arrival is activity, so no idle timer fires.
    CompletableFuture<Void> trickle =
        CompletableFuture.runAsync(
            () -> {
              try {
                out.write("X-Slow: ".getBytes(StandardCharsets.US_ASCII));
                for (int i = 0; i < 300; i++) {
                  out.write('a');
                  out.flush();
                  Thread.sleep(100);
                }
              } catch (IOException | InterruptedException closed) {
                // the server closed the connection: the point of the test
              }
            });

    String answer = RawHttp.readUntilClosed(socket.getInputStream());
    double seconds = (System.nanoTime() - started) / 1e9;

    assertThat(answer)
        .startsWith("HTTP/1.1 408")
        .contains("request headers did not arrive within 1 s")
        .contains("http.header_timeout_seconds = 1");
    assertThat(seconds).isLessThan(25);
    trickle.cancel(true);
  }

  @Test
  void pastTheConnectionCapANewConnectionIsAnsweredNamingTheLimit() throws Exception {
    start(new FrontDoor(10, 2, 2, 16), Duration.ofSeconds(10));
    for (int i = 0; i < 2; i++) {
      Socket held = open();
      // A complete request keeps the connection open (keep-alive) after its answer.
      send(held, "GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      assertThat(readLine(held.getInputStream())).startsWith("HTTP/1.1 ");
    }

    Socket third = open();
    send(third, "GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    String answer = RawHttp.readUntilClosed(third.getInputStream());

    assertThat(answer)
        .startsWith("HTTP/1.1 503")
        .contains("the server already has 2 open connections")
        .contains("http.max_connections = 2");
  }

  @Test
  void pastTheRequestCapTheNextRequestIsRefusedNamingTheLimit() throws Exception {
    start(new FrontDoor(10, 5, 64, 1), Duration.ofSeconds(10));
    String session = session("tok-alice");
    // The slow call must hold the only permit before the pings start; under load a ping can win
    // the race, so a slow call that was itself refused is retried (bounded).
    for (int attempt = 0; attempt < 5; attempt++) {
      CompletableFuture<HttpResponse<String>> slow = slowCall(session);
      HttpResponse<String> refused = eventuallyRefused(session, slow);
      if (slow.isDone() && slow.get().statusCode() == 503) {
        continue;
      }
      assertThat(refused.statusCode()).isEqualTo(503);
      assertThat(refused.body()).contains("http.max_concurrent_requests = 1");
      assertThat(slow.get().statusCode()).isEqualTo(200);
      return;
    }
    throw new AssertionError("the slow call never got the permit");
  }

  private CompletableFuture<HttpResponse<String>> slowCall(String session) {
    return client.sendAsync(
        request("tok-alice")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    """
                    {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"pause","arguments":{"ms":3000}}}"""))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("Mcp-Session-Id", session)
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Pings until one is refused or the slow call has ended. */
  private HttpResponse<String> eventuallyRefused(
      String session, CompletableFuture<HttpResponse<String>> slow) throws Exception {
    Thread.sleep(200);
    HttpResponse<String> last = ping("tok-alice", session);
    while (last.statusCode() != 503 && !slow.isDone()) {
      Thread.sleep(20);
      last = ping("tok-alice", session);
    }
    return last;
  }

  private Socket open() throws IOException {
    Socket s = new Socket("127.0.0.1", server.port());
    s.setSoTimeout(30_000);
    sockets.add(s);
    return s;
  }

  private static void send(Socket s, String text) throws IOException {
    s.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
    s.getOutputStream().flush();
  }

  private static String readLine(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
      line.append((char) c);
    }
    return line.toString();
  }
}
