package dev.agentcompute.lume;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One HTTP/1.1 request and its response over a stream of its own ({@code Connection: close}), the
 * little of HTTP that Lume's API needs: a status, a body by length, chunks or end of stream, no
 * redirects. The body is capped; a bigger one is an error, never a silent cut.
 */
final class HttpExchange {
  private HttpExchange() {}

  record Response(int status, byte[] body) {}

  /** Raised when the response body passes {@code maxBody} bytes. */
  static final class TooLarge extends IOException {
    TooLarge(int max) {
      super("response exceeds " + max + " bytes");
    }
  }

  static Response send(
      Dialer.Conn conn, String authority, String method, String path, byte[] body, int maxBody)
      throws IOException {
    StringBuilder head = new StringBuilder();
    head.append(method).append(' ').append(path).append(" HTTP/1.1\r\n");
    head.append("Host: ").append(authority).append("\r\n");
    head.append("Connection: close\r\n");
    head.append("Accept: application/json\r\n");
    if (body != null) {
      head.append("Content-Type: application/json\r\n");
    }
    if (body != null || !method.equals("GET")) {
      head.append("Content-Length: ").append(body == null ? 0 : body.length).append("\r\n");
    }
    head.append("\r\n");
    OutputStream out = conn.out();
    out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
    if (body != null) {
      out.write(body);
    }
    out.flush();

    InputStream in = conn.in();
    String statusLine = line(in);
    String[] parts = statusLine.split(" ", 3);
    if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
      throw new IOException("not an HTTP response: " + truncate(statusLine));
    }
    int status;
    try {
      status = Integer.parseInt(parts[1]);
    } catch (NumberFormatException e) {
      throw new IOException("bad HTTP status line: " + truncate(statusLine));
    }
    long length = -1;
    boolean chunked = false;
    for (String header = line(in); !header.isEmpty(); header = line(in)) {
      int colon = header.indexOf(':');
      if (colon <= 0) {
        continue;
      }
      String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = header.substring(colon + 1).trim();
      if (name.equals("content-length")) {
        length = Long.parseLong(value);
      } else if (name.equals("transfer-encoding")) {
        chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
      }
    }
    if (status == 204 || status == 304 || method.equals("HEAD") || status / 100 == 1) {
      return new Response(status, new byte[0]);
    }
    byte[] bytes;
    if (chunked) {
      bytes = chunks(in, maxBody);
    } else if (length >= 0) {
      if (length > maxBody) {
        throw new TooLarge(maxBody);
      }
      bytes = in.readNBytes((int) length);
      if (bytes.length < length) {
        throw new IOException("response body ended after " + bytes.length + " of " + length);
      }
    } else {
      bytes = in.readNBytes(maxBody + 1);
      if (bytes.length > maxBody) {
        throw new TooLarge(maxBody);
      }
    }
    return new Response(status, bytes);
  }

  private static byte[] chunks(InputStream in, int maxBody) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    while (true) {
      String size = line(in);
      int semi = size.indexOf(';');
      long n = Long.parseLong((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
      if (n == 0) {
        while (!line(in).isEmpty()) {
          // trailers are not used
        }
        return all.toByteArray();
      }
      if (all.size() + n > maxBody) {
        throw new TooLarge(maxBody);
      }
      byte[] chunk = in.readNBytes((int) n);
      if (chunk.length < n) {
        throw new IOException("response chunk ended early");
      }
      all.write(chunk);
      line(in);
    }
  }

  /** One CRLF- (or LF-) terminated header line; header lines are capped at 8 KiB. */
  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    while (true) {
      int b = in.read();
      if (b < 0) {
        if (buf.size() == 0) {
          throw new IOException("connection closed before the HTTP response ended");
        }
        break;
      }
      if (b == '\n') {
        break;
      }
      if (buf.size() >= 8192) {
        throw new IOException("HTTP header line too long");
      }
      buf.write(b);
    }
    String s = buf.toString(StandardCharsets.ISO_8859_1);
    return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
  }

  private static String truncate(String s) {
    return s.length() > 80 ? s.substring(0, 80) + "..." : s;
  }
}
