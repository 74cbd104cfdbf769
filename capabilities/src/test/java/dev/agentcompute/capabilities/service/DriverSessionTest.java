package dev.agentcompute.capabilities.service;

import static dev.agentcompute.capabilities.service.ScriptedProxy.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The MCP session with a Windows Driver proxy over an attached command's streams (here two pipes
 * and a scripted server on the other end): the handshake, calls, and what each way of failing
 * becomes.
 */
class DriverSessionTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Duration HANDSHAKE = Duration.ofSeconds(5);
  private static final Duration CALL = Duration.ofSeconds(5);

  private final ScriptedProxy command = new ScriptedProxy("0.21.0-test");

  @AfterEach
  void stop() {
    command.close();
  }

  private DriverSession open(Function<JsonNode, String> calls) throws DriverSession.Failure {
    command.serve(calls);
    return DriverSession.open(command, HANDSHAKE, CALL);
  }

  @Test
  void theHandshakeGivesTheServersVersionAndEveryPageOfTools() throws Exception {
    try (DriverSession session = open(request -> null)) {
      assertThat(session.version()).isEqualTo("0.21.0-test");
      assertThat(session.tools()).containsExactly("click", "list_windows", "get_desktop_state");
      assertThat(session.isOpen()).isTrue();
    }
    assertThat(command.methods())
        .containsExactly("initialize", "notifications/initialized", "tools/list", "tools/list");
  }

  @Test
  void aCallSendsTheToolAndItsArgumentsAndReturnsTheResult() throws Exception {
    try (DriverSession session =
        open(
            request ->
                ok(
                    request,
                    "{\"content\":[{\"type\":\"text\",\"text\":\"done\"}],"
                        + "\"structuredContent\":{\"echo\":"
                        + request.path("params").path("arguments")
                        + "}}"))) {
      McpSchema.CallToolResult result = session.call("click", "{\"x\":1,\"path\":\"C:\\\\a.png\"}");
      assertThat(result.isError()).isNotEqualTo(Boolean.TRUE);
      assertThat(result.structuredContent())
          .isEqualTo(Map.of("echo", Map.of("x", 1, "path", "C:\\a.png")));
      JsonNode call = command.requests().getLast();
      assertThat(call.path("params").path("name").asString()).isEqualTo("click");
    }
  }

  @Test
  void aStreamThatEndsWithACallOutstandingFailsItAtOnceAsLost() throws Exception {
    DriverSession session = open(request -> null);
    long start = System.nanoTime();
    assertThatThrownBy(() -> session.call("click", "{}"))
        .isInstanceOfSatisfying(
            DriverSession.Failure.class,
            f -> assertThat(f.kind()).isEqualTo(DriverSession.Failure.Kind.LOST));
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(CALL);
    assertThat(session.isOpen()).isFalse();
    // the reader fails the outstanding call first and then closes the stream: wait for the close
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (!command.closed() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(command.closed()).as("the session closes its stream").isTrue();
    session.close();
  }

  @Test
  void aJsonRpcErrorIsARefusalAndTheSessionStaysUsable() throws Exception {
    try (DriverSession session =
        open(
            request ->
                request.path("params").path("name").asString().equals("bad")
                    ? "{\"jsonrpc\":\"2.0\",\"id\":"
                        + request.path("id")
                        + ",\"error\":{\"code\":-32602,\"message\":\"Invalid params: x\"}}"
                    : ok(request, "{\"content\":[{\"type\":\"text\",\"text\":\"[OK]\"}]}"))) {
      assertThatThrownBy(() -> session.call("bad", "{}"))
          .isInstanceOfSatisfying(
              DriverSession.Failure.class,
              f -> {
                assertThat(f.kind()).isEqualTo(DriverSession.Failure.Kind.REFUSED);
                assertThat(f.getMessage()).isEqualTo("Invalid params: x");
              });
      assertThat(session.isOpen()).isTrue();
      assertThat(session.call("good", "{}").content())
          .singleElement()
          .isInstanceOfSatisfying(
              McpSchema.TextContent.class, text -> assertThat(text.text()).isEqualTo("[OK]"));
    }
  }

  @Test
  void noAnswerWithinTheCallTimeoutIsTimedOut() throws Exception {
    command.serve(request -> ScriptedProxy.SILENT);
    try (DriverSession session = DriverSession.open(command, HANDSHAKE, Duration.ofSeconds(2))) {
      assertThatThrownBy(() -> session.call("click", "{}"))
          .isInstanceOfSatisfying(
              DriverSession.Failure.class,
              f -> assertThat(f.kind()).isEqualTo(DriverSession.Failure.Kind.TIMED_OUT));
    }
  }

  @Test
  void anAnswerOverTheBoundIsTooLargeAndEndsTheSession() throws Exception {
    String huge = "x".repeat(DriverSession.MAX_MESSAGE);
    DriverSession session =
        open(
            request ->
                ok(request, "{\"content\":[{\"type\":\"text\",\"text\":\"" + huge + "\"}]}"));
    assertThatThrownBy(() -> session.call("list_apps", "{}"))
        .isInstanceOfSatisfying(
            DriverSession.Failure.class,
            f -> assertThat(f.kind()).isEqualTo(DriverSession.Failure.Kind.TOO_LARGE));
    assertThat(session.isOpen()).isFalse();
    session.close();
  }

  @Test
  void aLineThatIsNotJsonRpcEndsTheSessionAndLosesTheCall() throws Exception {
    DriverSession session = open(request -> "this is not JSON-RPC");
    assertThatThrownBy(() -> session.call("click", "{}"))
        .isInstanceOfSatisfying(
            DriverSession.Failure.class,
            f -> assertThat(f.kind()).isEqualTo(DriverSession.Failure.Kind.LOST));
    assertThat(session.isOpen()).isFalse();
    session.close();
  }

  @Test
  void aProxyThatExitsBeforeTheHandshakeFailsToOpenAndIsClosed() {
    command.exit("cua-driver-proxy: no interactive console session");
    assertThatThrownBy(() -> DriverSession.open(command, HANDSHAKE, CALL))
        .isInstanceOfSatisfying(
            DriverSession.Failure.class,
            f -> {
              assertThat(f.kind()).isEqualTo(DriverSession.Failure.Kind.LOST);
              assertThat(f.getMessage())
                  .contains("exit 1")
                  .contains("cua-driver-proxy: no interactive console session");
            });
    assertThat(command.closed()).isTrue();
  }

  @Test
  void closingTheSessionClosesTheStream() throws Exception {
    DriverSession session = open(request -> null);
    session.close();
    assertThat(command.closed()).isTrue();
    assertThat(session.isOpen()).isFalse();
  }
}
