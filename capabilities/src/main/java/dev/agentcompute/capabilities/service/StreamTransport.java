package dev.agentcompute.capabilities.service;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * The MCP Java SDK's client transport over a command's stdin and stdout: newline-delimited
 * JSON-RPC, as MCP's stdio transport is (the SDK's own stdio transport starts a local process; this
 * one speaks to a process that is already running, at the other end of an exec). One reader thread
 * hands each line to the SDK; the end of stdout, a line that is not JSON-RPC or one over {@code
 * maxLine} characters ends the transport, and {@code onEnd} is told why, once: the SDK waits for
 * answers until its timeout otherwise, and a call whose answer will never come must fail at once.
 */
final class StreamTransport implements McpClientTransport {

  /** Why the transport ended. */
  enum End {
    /** stdout ended (the command exited) or could not be read. */
    CLOSED,
    /** A line was not a JSON-RPC message. */
    GARBLED,
    /** A line was longer than the bound. */
    TOO_LONG,
    /** {@link #close} was called. */
    LOCAL
  }

  private final McpJsonMapper json;
  private final OutputStream out;
  private final InputStream in;
  private final int maxLine;
  private final Consumer<End> onEnd;
  private final AtomicBoolean connected = new AtomicBoolean();
  private final AtomicBoolean ended = new AtomicBoolean();

  StreamTransport(
      McpJsonMapper json, OutputStream out, InputStream in, int maxLine, Consumer<End> onEnd) {
    this.json = json;
    this.out = out;
    this.in = in;
    this.maxLine = maxLine;
    this.onEnd = onEnd;
  }

  @Override
  public Mono<Void> connect(
      Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
    return Mono.fromRunnable(
        () -> {
          // The stream has one reader; a second session over it would steal its lines.
          if (!connected.compareAndSet(false, true)) {
            throw new IllegalStateException("the Driver stream is already connected");
          }
          Thread.ofVirtual().name("cua-driver-mcp-reader").start(() -> read(handler));
        });
  }

  private void read(
      Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
    End why = End.CLOSED;
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      while (!ended.get()) {
        String line = readLine(reader);
        if (line == null) {
          break;
        }
        if (line.isBlank()) {
          continue;
        }
        McpSchema.JSONRPCMessage message;
        try {
          message = McpSchema.deserializeJsonRpcMessage(json, line);
        } catch (IOException | RuntimeException e) {
          why = End.GARBLED;
          break;
        }
        handler.apply(Mono.just(message)).subscribe();
      }
    } catch (LineTooLong e) {
      why = End.TOO_LONG;
    } catch (IOException e) {
      why = End.CLOSED;
    }
    end(why);
  }

  private static final class LineTooLong extends IOException {
    LineTooLong() {
      super("line too long");
    }
  }

  /** One line without its terminator ({@code \n} or {@code \r\n}), null at the end of input. */
  private String readLine(BufferedReader reader) throws IOException {
    StringBuilder line = new StringBuilder();
    int c;
    while ((c = reader.read()) != -1) {
      if (c == '\n') {
        int last = line.length() - 1;
        return last >= 0 && line.charAt(last) == '\r' ? line.substring(0, last) : line.toString();
      }
      if (line.length() >= maxLine) {
        throw new LineTooLong();
      }
      line.append((char) c);
    }
    return line.isEmpty() ? null : line.toString();
  }

  private void end(End why) {
    if (ended.compareAndSet(false, true)) {
      onEnd.accept(why);
    }
  }

  @Override
  public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
    return Mono.fromCallable(
            () -> {
              if (ended.get()) {
                throw new IOException("the Driver stream has ended");
              }
              // The SDK's encoding has no raw newline; one would split the message in two.
              String line = json.writeValueAsString(message).replace("\n", "\\n");
              synchronized (out) {
                out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
              }
              return line;
            })
        .then();
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.fromRunnable(this::close);
  }

  /** Stops reading; the stream itself belongs to whoever opened it. */
  @Override
  public void close() {
    end(End.LOCAL);
  }

  @Override
  public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
    return json.convertValue(data, typeRef);
  }
}
