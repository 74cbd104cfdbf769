package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.model.Cancellation;
import dev.agentcompute.capabilities.model.CommandStream;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * One MCP session with a Windows guest's Cua Driver proxy
 * (docs/reference/capabilities.md#desktops): the MCP Java SDK's sync client over the proxy's
 * attached exec ({@link StreamTransport}). Opening it is the handshake, {@code initialize} (the
 * server's version) then {@code tools/list} (the tool names). A call fails with a {@link Failure}
 * saying why; every kind but {@link Failure.Kind#REFUSED} leaves the session unusable, and none may
 * be repeated by the caller on its own: a call whose answer was lost may have acted on the desktop.
 */
final class DriverSession implements AutoCloseable {
  /**
   * The longest JSON-RPC line read from the Driver (docs/reference/capabilities.md#desktops: Driver
   * output is 4 MiB at most).
   */
  static final int MAX_MESSAGE = DesktopDriver.OUTPUT_LIMIT;

  private static final McpJsonMapper JSON = McpJsonDefaults.getMapper();

  /** Why a handshake or call failed. */
  static final class Failure extends Exception {
    enum Kind {
      /** The stream ended or broke before the answer came. */
      LOST,
      /** No answer within the timeout. */
      TIMED_OUT,
      /** The answer was over {@link #MAX_MESSAGE}. */
      TOO_LARGE,
      /** The Driver answered with a JSON-RPC error: the session is still good. */
      REFUSED
    }

    private final Kind kind;

    Failure(Kind kind, String message, Throwable cause) {
      super(message, cause);
      this.kind = kind;
    }

    Kind kind() {
      return kind;
    }
  }

  private final CommandStream stream;
  private final McpSyncClient client;
  private volatile StreamTransport.End end;
  private String version = "";
  private List<String> tools = List.of();

  private DriverSession(CommandStream stream, Duration handshakeTimeout, Duration callTimeout) {
    this.stream = stream;
    StreamTransport transport =
        new StreamTransport(JSON, stream.stdin(), stream.stdout(), MAX_MESSAGE, this::ended);
    this.client =
        McpClient.sync(transport)
            .clientInfo(McpSchema.Implementation.builder("agentcompute", "1").build())
            .initializationTimeout(handshakeTimeout)
            .requestTimeout(callTimeout)
            .build();
  }

  /**
   * The handshake over {@code stream}, which the session owns from here on (a failed handshake
   * closes it).
   */
  static DriverSession open(CommandStream stream, Duration handshakeTimeout, Duration callTimeout)
      throws Failure {
    DriverSession session = new DriverSession(stream, handshakeTimeout, callTimeout);
    try {
      McpSchema.InitializeResult init = session.attempt("initialize", session.client::initialize);
      if (init.serverInfo() != null && init.serverInfo().version() != null) {
        session.version = init.serverInfo().version();
      }
      List<String> names = new ArrayList<>();
      for (McpSchema.Tool tool : session.attempt("tools/list", session.client::listTools).tools()) {
        if (tool.name() != null && !tool.name().isEmpty()) {
          names.add(tool.name());
        }
      }
      session.tools = List.copyOf(names);
      return session;
    } catch (Failure e) {
      String diagnostics = session.diagnostics();
      session.close();
      throw new Failure(e.kind(), e.getMessage() + " (proxy " + diagnostics + ")", e);
    } catch (RuntimeException e) {
      session.close();
      throw e;
    }
  }

  /** {@code serverInfo.version} of the handshake ("" when the server sent none). */
  String version() {
    return version;
  }

  /** The tool names of {@code tools/list}, in the server's order. */
  List<String> tools() {
    return tools;
  }

  /** False once the stream has ended: nothing sent now could be answered. */
  boolean isOpen() {
    return end == null;
  }

  /** {@code tools/call}; {@code arguments} is a JSON object's text. */
  McpSchema.CallToolResult call(String tool, String arguments) throws Failure {
    McpSchema.CallToolRequest request =
        McpSchema.CallToolRequest.builder(tool).arguments(JSON, arguments).build();
    return attempt(tool, () -> client.callTool(request));
  }

  /** What the proxy said on stderr, and its exit code once it ended: for the operator's log. */
  String diagnostics() {
    String stderr = DesktopDriver.firstLine(stream.stderr());
    String exit =
        isOpen()
            ? "running"
            : stream.exitCode(Duration.ofSeconds(1)).stream()
                .mapToObj(code -> "exit " + code)
                .findFirst()
                .orElse("ended");
    return exit + (stderr.isEmpty() ? "" : ", stderr: " + stderr);
  }

  @Override
  public void close() {
    try {
      client.close();
    } catch (RuntimeException e) {
      // The SDK cannot close a session it is still setting up (the stream ended during connect);
      // nothing is pending then, and what it sends next fails at once on the ended transport.
    } finally {
      stream.close();
    }
  }

  private void ended(StreamTransport.End why) {
    end = why;
    if (why != StreamTransport.End.LOCAL) {
      // The SDK would wait for pending answers until its timeout; closing fails them now.
      close();
    }
  }

  private interface Request<T> {
    T send();
  }

  /** Runs one request, turning the SDK's failures into a {@link Failure} or a cancellation. */
  private <T> T attempt(String what, Request<T> request) throws Failure {
    try {
      return request.send();
    } catch (RuntimeException e) {
      if (Thread.currentThread().isInterrupted() || has(e, InterruptedException.class)) {
        throw Cancellation.canceled(e);
      }
      StreamTransport.End why = end;
      if (why == StreamTransport.End.TOO_LONG) {
        throw new Failure(Failure.Kind.TOO_LARGE, what + ": answer over the bound", e);
      }
      if (why != null) {
        throw new Failure(Failure.Kind.LOST, what + ": the stream ended (" + why + ")", e);
      }
      McpError refused = find(e, McpError.class);
      if (refused != null && refused.getJsonRpcError() != null) {
        throw new Failure(Failure.Kind.REFUSED, refused.getJsonRpcError().message(), e);
      }
      if (has(e, TimeoutException.class)) {
        throw new Failure(Failure.Kind.TIMED_OUT, what + ": no answer in time", e);
      }
      throw new Failure(Failure.Kind.LOST, what + ": " + e.getMessage(), e);
    }
  }

  private static boolean has(Throwable e, Class<? extends Throwable> type) {
    return find(e, type) != null;
  }

  private static <T extends Throwable> T find(Throwable e, Class<T> type) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }
}
