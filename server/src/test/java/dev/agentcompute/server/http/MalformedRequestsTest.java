package dev.agentcompute.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.server.auth.BearerTokensFile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What malformed MCP traffic gets: a JSON-RPC error with the status the MCP spec gives (200 for an
 * error answer to a request, 400 for input that is not an acceptable message), never a 500 and
 * never a body without the JSON-RPC shape.
 */
class MalformedRequestsTest {
  private static final String INIT =
      """
      {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",
       "capabilities":{},"clientInfo":{"name":"t","version":"0"}}}""";

  private final HttpClient client = HttpClient.newHttpClient();
  private HttpFrontEnd server;
  private String session;

  @BeforeEach
  void start() throws Exception {
    server =
        HttpFrontEnd.start(
            new ListenAddress("127.0.0.1", 0),
            Optional.empty(),
            TestTools.whoami(),
            StreamableHttpTransport.Settings.defaults(),
            b -> {});
    HttpResponse<String> init = post(INIT, b -> {});
    session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", this::inSession);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private void inSession(HttpRequest.Builder b) {
    b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-06-18");
  }

  private HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
    return client.send(
        b.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpRequest.Builder request() {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/mcp"));
  }

  private HttpResponse<String> post(String body, Consumer<HttpRequest.Builder> headers)
      throws Exception {
    HttpRequest.Builder b =
        request()
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream");
    headers.accept(b);
    return send(b);
  }

  private static void assertJsonRpcError(HttpResponse<String> res, int status, int code) {
    assertThat(res.statusCode()).as(res.body()).isEqualTo(status);
    assertThat(res.headers().firstValue("Content-Type")).contains("application/json");
    assertThat(res.body()).contains("\"jsonrpc\":\"2.0\"").contains("\"code\":" + code);
  }

  @ParameterizedTest
  @ValueSource(strings = {"\"params\":\"text\",", "\"params\":[1,2],", "\"params\":null,", ""})
  void aToolCallWithoutAnObjectOfParamsIsInvalidParams(String params) throws Exception {
    HttpResponse<String> res =
        post(
            "{\"jsonrpc\":\"2.0\",\"id\":7," + params + "\"method\":\"tools/call\"}",
            this::inSession);

    assertJsonRpcError(res, 200, -32602);
    assertThat(res.body()).contains("\"id\":7");
  }

  @Test
  void aToolCallWhoseArgumentsAreAStringIsInvalidParams() throws Exception {
    HttpResponse<String> res =
        post(
            "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"whoami\",\"arguments\":\"x\"}}",
            this::inSession);

    assertJsonRpcError(res, 200, -32602);
    assertThat(res.body()).contains("arguments must be an object");
  }

  @Test
  void aResponseToNoPendingRequestIsRefusedWith400() throws Exception {
    HttpResponse<String> res =
        post("{\"jsonrpc\":\"2.0\",\"id\":\"nobody-asked\",\"result\":{}}", this::inSession);

    assertJsonRpcError(res, 400, -32600);
  }

  @Test
  void aMessageThatIsNotJsonRpc20IsAnInvalidRequest() throws Exception {
    HttpResponse<String> res =
        post("{\"jsonrpc\":\"1.0\",\"id\":9,\"method\":\"tools/list\"}", this::inSession);

    assertJsonRpcError(res, 400, -32600);
    assertThat(res.body()).contains("jsonrpc must be \\\"2.0\\\"");
  }

  @Test
  void aRequestWithoutAMethodIsAnInvalidRequest() throws Exception {
    HttpResponse<String> res = post("{\"jsonrpc\":\"2.0\",\"id\":10}", this::inSession);

    assertJsonRpcError(res, 400, -32600);
  }

  @Test
  void aGetWithoutAnAcceptHeaderIs406LikeAGetWithTheWrongOne() throws Exception {
    HttpResponse<String> none = send(request().GET().header("Mcp-Session-Id", session));
    HttpResponse<String> wrong =
        send(request().GET().header("Mcp-Session-Id", session).header("Accept", "text/html"));

    assertJsonRpcError(none, 406, -32600);
    assertJsonRpcError(wrong, 406, -32600);
  }

  @Test
  void aWildcardAcceptDoesNotListTheEventStream() throws Exception {
    HttpResponse<String> any =
        send(request().GET().header("Mcp-Session-Id", session).header("Accept", "*/*"));

    assertJsonRpcError(any, 406, -32600);
  }

  @Test
  void twoAuthorizationHeadersAreABadRequest() throws Exception {
    server.close();
    server =
        HttpFrontEnd.start(
            new ListenAddress("127.0.0.1", 0),
            Optional.of(
                BearerTokensFile.parse(
                    "{\"alice\":\"tok-alice\"}".getBytes(StandardCharsets.UTF_8))),
            TestTools.whoami(),
            StreamableHttpTransport.Settings.defaults(),
            b -> {});

    HttpResponse<String> res =
        post(
            INIT,
            b ->
                b.header("Authorization", "Bearer tok-alice")
                    .header("Authorization", "Bearer tok-other"));

    assertThat(res.statusCode()).isEqualTo(400);
    assertThat(res.body()).contains("exactly one Authorization header");
  }

  @Test
  void aWellFormedCallStillWorksAfterMalformedOnes() throws Exception {
    post(
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"params\":\"text\",\"method\":\"tools/call\"}",
        this::inSession);

    HttpResponse<String> ok =
        post(
            "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"whoami\",\"arguments\":{}}}",
            this::inSession);

    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(ok.body()).contains("\"subject\":\"development\"");
  }
}
