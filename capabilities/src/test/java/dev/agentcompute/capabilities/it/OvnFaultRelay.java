package dev.agentcompute.capabilities.it;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * A fault-injecting HTTP relay in front of incusd's Unix socket, for tests that must see how the
 * production code reacts to what a real incusd does when an answer goes missing or says something
 * Incus 6.0 cannot be made to say. Requests are passed on one at a time per connection (HTTP/1.1
 * without pipelining, as incus-client sends them); an upgraded connection (websocket) becomes a
 * plain byte pipe. A {@link Fault} sees a matching request before incusd does and decides what
 * becomes of incusd's answer: passed on, rewritten, or lost (read from incusd, then the client's
 * connection is closed without it: the request took effect, the caller cannot know).
 */
final class OvnFaultRelay implements AutoCloseable {

  /** One request as the client sent it. */
  record Request(String method, String target, List<String> headers, byte[] body) {
    String path() {
      int query = target.indexOf('?');
      return query < 0 ? target : target.substring(0, query);
    }

    String bodyText() {
      return new String(body, StandardCharsets.UTF_8);
    }

    boolean is(String method, String path) {
      return this.method.equals(method) && path().equals(path);
    }
  }

  /** What becomes of incusd's answer to a request. */
  sealed interface Answer {}

  /** Passed on unchanged. */
  record Pass() implements Answer {}

  /** Read from incusd, then the client's connection is closed without it. */
  record Lose() implements Answer {}

  /** Passed on with its body rewritten. */
  record Rewrite(UnaryOperator<String> body) implements Answer {}

  /** Runs before the request goes on to incusd (it may change things there first). */
  interface Fault {
    Answer apply(Request request) throws Exception;
  }

  private record Armed(Predicate<Request> when, Fault fault, boolean once) {}

  private final Path upstream;
  private final Path socket;
  private final ServerSocketChannel server;
  private final List<Armed> faults = new CopyOnWriteArrayList<>();
  private final List<Request> seen = new CopyOnWriteArrayList<>();
  private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();
  private final Thread acceptor;

  private OvnFaultRelay(Path upstream, Path socket) throws IOException {
    this.upstream = upstream;
    this.socket = socket;
    this.server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(socket));
    this.acceptor = Thread.ofPlatform().daemon().name("ovn-fault-relay").start(this::accept);
  }

  /** A relay listening on {@code dir/relay.sock} that passes everything on to {@code upstream}. */
  static OvnFaultRelay start(Path upstream, Path dir) throws IOException {
    return new OvnFaultRelay(upstream, dir.resolve("relay.sock"));
  }

  Path socket() {
    return socket;
  }

  /** Applies {@code fault} to the next request {@code when} accepts, once. */
  void once(Predicate<Request> when, Fault fault) {
    faults.add(new Armed(when, fault, true));
  }

  /** Applies {@code fault} to every request {@code when} accepts until {@link #clear()}. */
  void always(Predicate<Request> when, Fault fault) {
    faults.add(new Armed(when, fault, false));
  }

  void clear() {
    faults.clear();
  }

  /** Every request the relay has passed on (or lost the answer of), oldest first. */
  List<Request> seen(Predicate<Request> which) {
    return seen.stream().filter(which).toList();
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (SocketChannel channel : open) {
      channel.close();
    }
    Files.deleteIfExists(socket);
  }

  private void accept() {
    while (server.isOpen()) {
      try {
        SocketChannel client = server.accept();
        Thread.ofPlatform().daemon().name("ovn-fault-relay-conn").start(() -> serve(client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private Answer answerFor(Request request) throws Exception {
    for (Armed armed : faults) {
      if (armed.when().test(request) && (!armed.once() || faults.remove(armed))) {
        return armed.fault().apply(request);
      }
    }
    return new Pass();
  }

  private void serve(SocketChannel client) {
    open.add(client);
    try (client;
        SocketChannel incusd = SocketChannel.open(UnixDomainSocketAddress.of(upstream))) {
      open.add(incusd);
      Reader fromClient = new Reader(client);
      Reader fromIncusd = new Reader(incusd);
      while (true) {
        Message request = Message.read(fromClient, false, null);
        if (request == null) {
          return;
        }
        String[] line = request.startLine().split(" ", 3);
        Request seenRequest = new Request(line[0], line[1], request.headers(), request.body());
        Answer answer = answerFor(seenRequest);
        seen.add(seenRequest);
        request.write(incusd);
        Message response = Message.read(fromIncusd, true, line[0]);
        if (response == null) {
          return;
        }
        switch (answer) {
          case Lose _ -> {
            return; // incusd answered; the client never hears it
          }
          case Rewrite rewrite -> {
            String text = rewrite.body().apply(new String(response.body(), StandardCharsets.UTF_8));
            response = response.withBody(text.getBytes(StandardCharsets.UTF_8));
          }
          case Pass _ -> {}
        }
        response.write(client);
        if (response.startLine().split(" ", 3)[1].equals("101")) {
          pipe(fromClient, incusd, fromIncusd, client);
          return;
        }
        if (response.closes() || request.closes()) {
          return;
        }
      }
    } catch (Exception e) {
      // the client or incusd went away: so does this connection
    } finally {
      open.remove(client);
    }
  }

  /** Both directions as plain bytes until either side closes. */
  private static void pipe(
      Reader fromClient, SocketChannel incusd, Reader fromIncusd, SocketChannel client)
      throws InterruptedException {
    Thread back = Thread.ofPlatform().daemon().start(() -> fromIncusd.copyTo(client));
    fromClient.copyTo(incusd);
    back.join();
  }

  /** Buffered reads from a channel (channels allow one reader and one writer at a time). */
  private static final class Reader {
    private final SocketChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024).flip();

    Reader(SocketChannel channel) {
      this.channel = channel;
    }

    /** False at end of stream. */
    private boolean fill() throws IOException {
      if (buffer.hasRemaining()) {
        return true;
      }
      buffer.clear();
      int n = channel.read(buffer);
      buffer.flip();
      return n > 0;
    }

    /** A line without its CR LF; null at end of stream before any byte. */
    String line() throws IOException {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      while (true) {
        if (!fill()) {
          if (out.size() == 0) {
            return null;
          }
          throw new EOFException("end of stream inside a line");
        }
        byte b = buffer.get();
        if (b == '\n') {
          String text = out.toString(StandardCharsets.ISO_8859_1);
          return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
        }
        out.write(b);
      }
    }

    byte[] bytes(long count) throws IOException {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      while (out.size() < count) {
        if (!fill()) {
          throw new EOFException("end of stream inside a body");
        }
        int n = (int) Math.min(buffer.remaining(), count - out.size());
        out.write(buffer.array(), buffer.arrayOffset() + buffer.position(), n);
        buffer.position(buffer.position() + n);
      }
      return out.toByteArray();
    }

    byte[] rest() throws IOException {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      while (fill()) {
        out.write(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
        buffer.position(buffer.limit());
      }
      return out.toByteArray();
    }

    void copyTo(SocketChannel to) {
      try {
        while (fill()) {
          while (buffer.hasRemaining()) {
            to.write(buffer);
          }
        }
      } catch (IOException e) {
        // one side closed
      } finally {
        try {
          to.shutdownOutput();
        } catch (IOException e) {
          // already closed
        }
      }
    }
  }

  /**
   * An HTTP/1.1 message, its body read whole (chunked bodies are de-chunked and sent with a
   * length).
   */
  private record Message(String startLine, List<String> headers, byte[] body) {
    static Message read(Reader in, boolean response, String requestMethod) throws IOException {
      String start = in.line();
      if (start == null) {
        return null;
      }
      List<String> headers = new ArrayList<>();
      for (String line = in.line(); line != null && !line.isEmpty(); line = in.line()) {
        headers.add(line);
      }
      Function<String, String> header =
          name ->
              headers.stream()
                  .filter(h -> h.toLowerCase(Locale.ROOT).startsWith(name + ":"))
                  .map(h -> h.substring(h.indexOf(':') + 1).trim())
                  .findFirst()
                  .orElse(null);
      String length = header.apply("content-length");
      String encoding = header.apply("transfer-encoding");
      byte[] body;
      if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (long size = chunkSize(in.line()); size > 0; size = chunkSize(in.line())) {
          out.write(in.bytes(size));
          in.line(); // the CR LF after the chunk
        }
        for (String trailer = in.line();
            trailer != null && !trailer.isEmpty();
            trailer = in.line()) {
          // trailers are dropped
        }
        body = out.toByteArray();
      } else if (length != null) {
        body = in.bytes(Long.parseLong(length));
      } else if (response && hasBody(start, requestMethod)) {
        body = in.rest();
      } else {
        body = new byte[0];
      }
      return new Message(start, headers, body);
    }

    private static boolean hasBody(String statusLine, String requestMethod) {
      int status = Integer.parseInt(statusLine.split(" ", 3)[1]);
      return !"HEAD".equals(requestMethod) && status >= 200 && status != 204 && status != 304;
    }

    private static long chunkSize(String line) throws IOException {
      if (line == null) {
        throw new EOFException("end of stream inside a chunked body");
      }
      int ext = line.indexOf(';');
      return Long.parseLong((ext < 0 ? line : line.substring(0, ext)).trim(), 16);
    }

    boolean closes() {
      return headers.stream()
          .anyMatch(h -> h.toLowerCase(Locale.ROOT).replace(" ", "").equals("connection:close"));
    }

    Message withBody(byte[] newBody) {
      return new Message(startLine, headers, newBody);
    }

    void write(SocketChannel to) throws IOException {
      boolean bodyless = body.length == 0 && headers.stream().noneMatch(Message::framing);
      StringBuilder head = new StringBuilder(startLine).append("\r\n");
      for (String h : headers) {
        if (!framing(h)) {
          head.append(h).append("\r\n");
        }
      }
      if (!bodyless) {
        head.append("Content-Length: ").append(body.length).append("\r\n");
      }
      head.append("\r\n");
      ByteBuffer out = ByteBuffer.allocate(head.length() + body.length);
      out.put(head.toString().getBytes(StandardCharsets.ISO_8859_1)).put(body).flip();
      while (out.hasRemaining()) {
        to.write(out);
      }
    }

    private static boolean framing(String header) {
      String lower = header.toLowerCase(Locale.ROOT);
      return lower.startsWith("content-length:") || lower.startsWith("transfer-encoding:");
    }
  }
}
