package dev.agentcompute.incus;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * One file written over incusd's SFTP endpoint ({@code GET /1.0/instances/<name>/sftp}, upgraded to
 * a raw SFTP version 3 stream), the way {@code incus file push} does it: writes of 32 KiB with up
 * to 64 unanswered at once, so the body flows without a round trip per chunk while at most 2 MiB of
 * it is held. Incus's file API (a POST of the whole body) moves the same bytes through a forked
 * helper's pipe at about half the speed on this machine kind.
 */
final class SftpUpload {
  private static final int CHUNK = 32 * 1024;
  private static final int IN_FLIGHT = 64;

  private static final int SSH_FXP_INIT = 1;
  private static final int SSH_FXP_VERSION = 2;
  private static final int SSH_FXP_OPEN = 3;
  private static final int SSH_FXP_CLOSE = 4;
  private static final int SSH_FXP_WRITE = 6;
  private static final int SSH_FXP_FSETSTAT = 10;
  private static final int SSH_FXP_STATUS = 101;
  private static final int SSH_FXP_HANDLE = 102;

  private static final int SSH_FXF_WRITE = 0x02;
  private static final int SSH_FXF_CREAT = 0x08;
  private static final int SSH_FXF_TRUNC = 0x10;
  private static final int SSH_FILEXFER_ATTR_PERMISSIONS = 0x04;

  private final Socket socket;
  private final DataInputStream in;
  private final DataOutputStream out;
  private final String what;
  private int nextId = 1;

  private SftpUpload(Socket socket, String what) throws IOException {
    this.socket = socket;
    this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 64 * 1024));
    this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), CHUNK + 64));
    this.what = what;
  }

  /**
   * Writes {@code body} ({@code length} bytes, or to its end when negative) to {@code path},
   * replacing the file; a new file gets {@code mode} (or the server's default when null). Returns
   * the bytes written.
   */
  static long write(
      Rest rest,
      Scope scope,
      String instance,
      String path,
      InputStream body,
      long length,
      Integer mode,
      Duration timeout) {
    String what = "SFTP write of " + path + " in " + instance;
    try (Socket socket = dial(rest.transport(), timeout)) {
      SftpUpload sftp = new SftpUpload(socket, what);
      sftp.upgrade(scope.apply("/1.0/instances/" + Scope.segment(instance) + "/sftp"));
      sftp.init();
      byte[] handle = sftp.open(path, mode);
      long written = sftp.stream(handle, body, length);
      if (mode != null) {
        sftp.chmod(handle, mode);
      }
      sftp.close(handle);
      return written;
    } catch (IOException e) {
      throw new IncusException.Unavailable(0, what + ": " + e.getMessage(), e);
    }
  }

  private static Socket dial(Transport transport, Duration timeout) throws IOException {
    URI uri = transport.webSocketUri("/");
    Socket socket = transport.webSocketSockets().createSocket();
    if (!socket.isConnected()) {
      int port = uri.getPort() > 0 ? uri.getPort() : 8443;
      socket.connect(new InetSocketAddress(uri.getHost(), port), 10_000);
    }
    if (socket instanceof SSLSocket tls && transport.verifiesHostname()) {
      SSLParameters parameters = tls.getSSLParameters();
      parameters.setEndpointIdentificationAlgorithm("HTTPS");
      tls.setSSLParameters(parameters);
    }
    socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis())));
    return socket;
  }

  private void upgrade(String pathAndQuery) throws IOException {
    out.write(
        ("GET "
                + pathAndQuery
                + " HTTP/1.1\r\nHost: localhost\r\nUpgrade: sftp\r\nConnection: Upgrade\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    out.flush();
    String status = line();
    long contentLength = 0;
    for (String header = line(); !header.isEmpty(); header = line()) {
      if (header.regionMatches(true, 0, "Content-Length:", 0, 15)) {
        contentLength = Long.parseLong(header.substring(15).strip());
      }
    }
    if (!status.startsWith("HTTP/1.1 101")) {
      byte[] answer = in.readNBytes((int) Math.min(contentLength, 64 * 1024));
      throw new IncusException.Failed(
          statusCode(status), what + ": " + new String(answer, StandardCharsets.UTF_8), null);
    }
  }

  private static int statusCode(String status) {
    String[] parts = status.split(" ");
    try {
      return parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private String line() throws IOException {
    StringBuilder line = new StringBuilder();
    for (int c; (c = in.read()) != '\n'; ) {
      if (c < 0) {
        throw new IOException("connection closed during the SFTP upgrade");
      }
      if (c != '\r') {
        line.append((char) c);
      }
    }
    return line.toString();
  }

  private void init() throws IOException {
    out.writeInt(5);
    out.writeByte(SSH_FXP_INIT);
    out.writeInt(3);
    out.flush();
    int length = in.readInt();
    int type = in.readUnsignedByte();
    in.skipNBytes(length - 1L);
    if (type != SSH_FXP_VERSION) {
      throw new IOException("the SFTP server answered INIT with packet type " + type);
    }
  }

  private byte[] open(String path, Integer mode) throws IOException {
    byte[] name = path.getBytes(StandardCharsets.UTF_8);
    int id = nextId++;
    boolean withMode = mode != null;
    out.writeInt(1 + 4 + 4 + name.length + 4 + 4 + (withMode ? 4 : 0));
    out.writeByte(SSH_FXP_OPEN);
    out.writeInt(id);
    out.writeInt(name.length);
    out.write(name);
    out.writeInt(SSH_FXF_WRITE | SSH_FXF_CREAT | SSH_FXF_TRUNC);
    out.writeInt(withMode ? SSH_FILEXFER_ATTR_PERMISSIONS : 0);
    if (withMode) {
      out.writeInt(mode);
    }
    out.flush();
    int length = in.readInt();
    int type = in.readUnsignedByte();
    int answered = in.readInt();
    if (answered != id) {
      throw new IOException("SFTP answer " + answered + " to request " + id);
    }
    if (type == SSH_FXP_STATUS) {
      IncusException failure = failure(length);
      if (failure != null) {
        throw failure;
      }
      throw new IOException("the SFTP server opened no handle");
    }
    if (type != SSH_FXP_HANDLE) {
      throw new IOException("the SFTP server answered OPEN with packet type " + type);
    }
    byte[] handle = new byte[in.readInt()];
    in.readFully(handle);
    return handle;
  }

  private long stream(byte[] handle, InputStream body, long length) throws IOException {
    byte[] chunk = new byte[CHUNK];
    long offset = 0;
    int unanswered = 0;
    while (length < 0 || offset < length) {
      int want = length < 0 ? CHUNK : (int) Math.min(CHUNK, length - offset);
      int n = body.readNBytes(chunk, 0, want);
      if (n == 0) {
        break;
      }
      if (unanswered == IN_FLIGHT) {
        out.flush();
        expectOk();
        unanswered--;
      }
      out.writeInt(1 + 4 + 4 + handle.length + 8 + 4 + n);
      out.writeByte(SSH_FXP_WRITE);
      out.writeInt(nextId++);
      out.writeInt(handle.length);
      out.write(handle);
      out.writeLong(offset);
      out.writeInt(n);
      out.write(chunk, 0, n);
      unanswered++;
      offset += n;
    }
    out.flush();
    for (; unanswered > 0; unanswered--) {
      expectOk();
    }
    return offset;
  }

  /** Sets the mode of the open file: a file that existed keeps its own otherwise. */
  private void chmod(byte[] handle, int mode) throws IOException {
    out.writeInt(1 + 4 + 4 + handle.length + 4 + 4);
    out.writeByte(SSH_FXP_FSETSTAT);
    out.writeInt(nextId++);
    out.writeInt(handle.length);
    out.write(handle);
    out.writeInt(SSH_FILEXFER_ATTR_PERMISSIONS);
    out.writeInt(mode);
    out.flush();
    expectOk();
  }

  private void close(byte[] handle) throws IOException {
    out.writeInt(1 + 4 + 4 + handle.length);
    out.writeByte(SSH_FXP_CLOSE);
    out.writeInt(nextId++);
    out.writeInt(handle.length);
    out.write(handle);
    out.flush();
    expectOk();
  }

  /** Reads one STATUS answer; anything but OK fails with the server's message. */
  private void expectOk() throws IOException {
    int length = in.readInt();
    int type = in.readUnsignedByte();
    in.readInt();
    if (type != SSH_FXP_STATUS) {
      throw new IOException("the SFTP server answered with packet type " + type);
    }
    IncusException failure = failure(length);
    if (failure != null) {
      throw failure;
    }
  }

  /** The rest of a STATUS packet: null for OK, else the failure with the server's text. */
  private IncusException failure(int length) throws IOException {
    int code = in.readInt();
    int rest = length - 1 - 4 - 4;
    String message = "";
    if (rest >= 4) {
      byte[] text = new byte[in.readInt()];
      in.readFully(text);
      message = new String(text, StandardCharsets.UTF_8);
      rest -= 4 + text.length;
    }
    in.skipNBytes(Math.max(0, rest));
    if (code == 0) {
      return null;
    }
    // The file API's text for the same failures reads "sftp: <message>": keep it, so callers
    // that look for "disk quota exceeded" or "not found" see the same words.
    String text = what + ": sftp: " + message + " (SSH_FX code " + code + ")";
    return code == 2
        ? new IncusException.NotFound(text)
        : new IncusException.Failed(500, text, null);
  }
}
