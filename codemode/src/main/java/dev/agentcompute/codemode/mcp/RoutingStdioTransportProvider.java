package dev.agentcompute.codemode.mcp;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import reactor.core.publisher.Mono;

/**
 * The MCP Java SDK's stdio transport with the resources methods answered per caller: a reader in
 * front of it takes {@code resources/list}, {@code resources/templates/list} and {@code
 * resources/read} requests to {@link ResourceRequests} and passes every other line to the SDK. Both
 * write whole lines to stdout under the stream's lock, as the SDK does.
 */
public final class RoutingStdioTransportProvider implements McpServerTransportProvider {

  /** The SDK's bound on one inbound message, in characters. */
  static final int MAX_LINE = 16 * 1024 * 1024;

  private final McpJsonMapper json;
  private final InputStream in;
  private final OutputStream out;
  private final ResourceRequests resources;
  private final LineFeed feed = new LineFeed();
  private final StdioServerTransportProvider sdk;

  public RoutingStdioTransportProvider(
      McpJsonMapper json, InputStream in, OutputStream out, ResourceRequests resources) {
    this.json = json;
    this.in = in;
    this.out = out;
    this.resources = resources;
    this.sdk = new StdioServerTransportProvider(json, feed, out, MAX_LINE);
  }

  @Override
  public void setSessionFactory(McpServerSession.Factory sessionFactory) {
    sdk.setSessionFactory(sessionFactory);
    Thread.ofPlatform().daemon().name("codemode-stdio-router").start(this::route);
  }

  @Override
  public Mono<Void> notifyClients(String method, Object params) {
    return sdk.notifyClients(method, params);
  }

  @Override
  public Mono<Void> notifyClient(String sessionId, String method, Object params) {
    return sdk.notifyClient(sessionId, method, params);
  }

  @Override
  public Mono<Void> closeGracefully() {
    return sdk.closeGracefully();
  }

  @Override
  public List<String> protocolVersions() {
    return sdk.protocolVersions();
  }

  private void route() {
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = readLine(reader)) != null) {
        McpSchema.JSONRPCRequest request = resourcesRequest(line);
        if (request == null) {
          feed.push(line);
        } else {
          Thread.ofVirtual().name("codemode-resources").start(() -> answer(request));
        }
      }
    } catch (IOException e) {
      // stdin is gone: the SDK sees the end below and closes the session
    } finally {
      feed.end();
    }
  }

  /**
   * One line without its terminator ({@code \n}, {@code \r\n} or {@code \r}), null at the end; a
   * line above {@link #MAX_LINE} ends the session, as the SDK's reader does.
   */
  private static String readLine(BufferedReader reader) throws IOException {
    StringBuilder b = new StringBuilder();
    int c;
    while ((c = reader.read()) != -1) {
      if (c == '\n') {
        return b.toString();
      }
      if (c == '\r') {
        reader.mark(1);
        if (reader.read() != '\n') {
          reader.reset();
        }
        return b.toString();
      }
      if (b.length() >= MAX_LINE) {
        throw new IOException("inbound message exceeds " + MAX_LINE + " characters");
      }
      b.append((char) c);
    }
    return b.isEmpty() ? null : b.toString();
  }

  /** The line as a resources request, or null when the SDK should have it. */
  private McpSchema.JSONRPCRequest resourcesRequest(String line) {
    if (!line.contains("\"resources/")) {
      return null;
    }
    try {
      if (McpSchema.deserializeJsonRpcMessage(json, line) instanceof McpSchema.JSONRPCRequest r
          && ResourceRequests.handles(r.method())) {
        return r;
      }
    } catch (IOException | RuntimeException notAMessage) {
      // the SDK reports it
    }
    return null;
  }

  private void answer(McpSchema.JSONRPCRequest request) {
    McpSchema.JSONRPCResponse response = resources.handle(McpTransportContext.EMPTY, request);
    try {
      String text = json.writeValueAsString(response).replace("\r", "\\r").replace("\n", "\\n");
      synchronized (out) {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.write('\n');
        out.flush();
      }
    } catch (IOException e) {
      // the client is gone
    }
  }
}
