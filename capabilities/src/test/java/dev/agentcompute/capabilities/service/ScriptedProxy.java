package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.model.CommandStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An attached command made of two pipes with a scripted MCP server at the other end, standing in
 * for the Windows Driver proxy in unit tests: it answers {@code initialize} (protocol 2025-06-18,
 * {@code serverInfo.version} as given) and {@code tools/list} (two pages: click and list_windows,
 * then get_desktop_state), ignores notifications, and hands each {@code tools/call} to the test's
 * script. A script answering null ends the stream without an answer (the proxy died mid-call);
 * {@link #SILENT} answers nothing and keeps going.
 */
final class ScriptedProxy implements CommandStream {
  static final String SILENT = "";

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final String version;
  private final Pipe toServer = pipe();
  private final Pipe toClient = pipe();
  private final OutputStream stdin = Channels.newOutputStream(toServer.sink());
  private final InputStream stdout = Channels.newInputStream(toClient.source());
  private final OutputStream serverOut = Channels.newOutputStream(toClient.sink());
  private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile String stderr = "";
  private volatile boolean exited;

  ScriptedProxy(String version) {
    this.version = version;
  }

  /** A JSON-RPC answer to {@code request} with {@code result}. */
  static String ok(JsonNode request, String result) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + request.path("id") + ",\"result\":" + result + "}";
  }

  /** Starts answering, {@code tools/call} with {@code calls}. */
  ScriptedProxy serve(Function<JsonNode, String> calls) {
    Thread.ofVirtual().name("scripted-proxy").start(() -> run(calls));
    return this;
  }

  /** The proxy exits (status 1) with {@code message} on stderr, answering nothing more. */
  void exit(String message) {
    stderr = message + "\n";
    exited = true;
    closeQuietly(serverOut);
  }

  private void run(Function<JsonNode, String> calls) {
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(
                Channels.newInputStream(toServer.source()), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null && !exited; line = in.readLine()) {
        JsonNode request = JSON.readTree(line);
        requests.add(request);
        String answer =
            switch (request.path("method").asString()) {
              case "initialize" ->
                  ok(
                      request,
                      "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{}},"
                          + "\"serverInfo\":{\"name\":\"cua-driver\",\"version\":\""
                          + version
                          + "\"}}");
              case "tools/list" ->
                  request.path("params").path("cursor").asString("").isEmpty()
                      ? ok(
                          request,
                          "{\"tools\":[{\"name\":\"click\",\"inputSchema\":{\"type\":\"object\"}},"
                              + "{\"name\":\"list_windows\",\"inputSchema\":{\"type\":\"object\"}}],"
                              + "\"nextCursor\":\"2\"}")
                      : ok(
                          request,
                          "{\"tools\":[{\"name\":\"get_desktop_state\","
                              + "\"inputSchema\":{\"type\":\"object\"}}]}");
              case "tools/call" -> calls.apply(request);
              default -> SILENT; // notifications/initialized
            };
        if (answer == null) {
          exit("");
          return;
        }
        if (!answer.isEmpty()) {
          synchronized (serverOut) {
            serverOut.write((answer + "\n").getBytes(StandardCharsets.UTF_8));
            serverOut.flush();
          }
        }
      }
    } catch (IOException e) {
      // the client closed its end
    } finally {
      closeQuietly(serverOut);
    }
  }

  /** Every request the server read, in order. */
  List<JsonNode> requests() {
    return requests;
  }

  List<String> methods() {
    return requests.stream().map(r -> r.path("method").asString()).toList();
  }

  /** The {@code tools/call} requests of {@code tool}. */
  List<JsonNode> calls(String tool) {
    return requests.stream()
        .filter(r -> r.path("method").asString().equals("tools/call"))
        .filter(r -> r.path("params").path("name").asString().equals(tool))
        .toList();
  }

  boolean closed() {
    return closed.get();
  }

  @Override
  public OutputStream stdin() {
    return stdin;
  }

  @Override
  public InputStream stdout() {
    return stdout;
  }

  @Override
  public String stderr() {
    return stderr;
  }

  @Override
  public OptionalInt exitCode(Duration wait) {
    return exited ? OptionalInt.of(1) : OptionalInt.empty();
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      closeQuietly(stdin);
      closeQuietly(stdout);
    }
  }

  private static Pipe pipe() {
    try {
      return Pipe.open();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void closeQuietly(AutoCloseable stream) {
    try {
      stream.close();
    } catch (Exception e) {
      // already closed
    }
  }
}
