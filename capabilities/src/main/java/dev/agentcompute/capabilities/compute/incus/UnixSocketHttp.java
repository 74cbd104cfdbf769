package dev.agentcompute.capabilities.compute.incus;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Minimal HTTP/1.1 over incusd's Unix socket: one connection per exchange ({@code Connection: close}),
 * Content-Length or chunked answers. The channel is interruptible, so a cancelled caller's thread
 * interrupt closes the connection instead of blocking.
 */
final class UnixSocketHttp {
  /** A fully read answer; header names are lower-cased. */
  record Response(int status, Map<String, String> headers, byte[] body) {
    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  private final Path socket;

  UnixSocketHttp(Path socket) {
    this.socket = socket;
  }

  Path socket() {
    return socket;
  }

  Response exchange(String method, String target, Map<String, String> headers, byte[] body) throws IOException {
    return exchange(method, target, headers, body, Integer.MAX_VALUE);
  }

  /**
   * Like {@link #exchange(String, String, Map, byte[])} but keeps at most {@code maxBody} bytes of a
   * successful answer's body and then hangs up instead of reading the rest (exec logs, file reads).
   */
  Response exchange(String method, String target, Map<String, String> headers, byte[] body, int maxBody)
      throws IOException {
    try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
      OutputStream out = Channels.newOutputStream(channel);
      StringBuilder head = new StringBuilder();
      head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
      head.append("Host: incus\r\nConnection: close\r\nUser-Agent: agentcompute\r\n");
      headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
      if (body != null) {
        head.append("Content-Length: ").append(body.length).append("\r\n");
      }
      head.append("\r\n");
      out.write(head.toString().getBytes(StandardCharsets.UTF_8));
      if (body != null) {
        out.write(body);
      }
      out.flush();
      InputStream in = new java.io.BufferedInputStream(Channels.newInputStream(channel), 65536);
      String statusLine = readLine(in);
      String[] parts = statusLine.split(" ", 3);
      if (parts.length < 2 || !parts[0].startsWith("HTTP/")) {
        throw new IOException("malformed HTTP status line from incusd: " + statusLine);
      }
      int status = Integer.parseInt(parts[1]);
      Map<String, String> answerHeaders = new HashMap<>();
      for (String line = readLine(in); !line.isEmpty(); line = readLine(in)) {
        int colon = line.indexOf(':');
        if (colon > 0) {
          answerHeaders.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
      }
      int max = status >= 400 ? Integer.MAX_VALUE : maxBody;
      byte[] answer;
      if ("chunked".equalsIgnoreCase(answerHeaders.get("transfer-encoding"))) {
        answer = readChunked(in, max);
      } else if (answerHeaders.containsKey("content-length")) {
        answer = in.readNBytes((int) Math.min(max, Long.parseLong(answerHeaders.get("content-length"))));
      } else {
        answer = in.readNBytes(max);
      }
      return new Response(status, answerHeaders, answer);
    }
  }

  private static byte[] readChunked(InputStream in, int max) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while (true) {
      if (out.size() >= max) {
        return out.toByteArray();
      }
      String sizeLine = readLine(in);
      int semicolon = sizeLine.indexOf(';');
      int size = Integer.parseInt((semicolon >= 0 ? sizeLine.substring(0, semicolon) : sizeLine).trim(), 16);
      if (size == 0) {
        while (!readLine(in).isEmpty()) {
          // trailers
        }
        return out.toByteArray();
      }
      if (out.size() + (long) size > max) {
        out.write(in.readNBytes(max - out.size()));
        return out.toByteArray();
      }
      out.write(in.readNBytes(size));
      readLine(in);
    }
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) != -1) {
      if (b == '\n') {
        break;
      }
      if (b != '\r') {
        line.write(b);
      }
    }
    if (b == -1 && line.size() == 0) {
      throw new IOException("incusd closed the connection early");
    }
    return line.toString(StandardCharsets.UTF_8);
  }
}
