package dev.agentcompute.incus;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One exec output websocket served the way incusd 6.0 serves it, over a Unix socket: the upgrade
 * answer together with a keep-alive ping, then (once {@code beforeOutput} is released) the output
 * as a binary message, the end marker (an empty text message) unless told to leave it out, and a
 * plain hang-up without a close frame. {@link #closed} is released after the hang-up.
 */
final class FakeExecWebSocket implements AutoCloseable {

  private static final Pattern KEY = Pattern.compile("(?i)Sec-WebSocket-Key:\\s*(\\S+)");

  final CountDownLatch closed = new CountDownLatch(1);
  private final ServerSocketChannel server;
  private final Thread thread;
  private volatile Throwable failure;

  FakeExecWebSocket(Path socket, byte[] output, boolean endMarker, CountDownLatch beforeOutput)
      throws IOException {
    server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(socket));
    thread =
        Thread.ofPlatform()
            .daemon()
            .name("fake-incusd-exec")
            .start(
                () -> {
                  try (SocketChannel client = server.accept()) {
                    String key = readKey(client);
                    ByteArrayOutputStream first = new ByteArrayOutputStream();
                    first.writeBytes(
                        ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                                + "Connection: Upgrade\r\nSec-WebSocket-Accept: "
                                + accept(key)
                                + "\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
                    first.writeBytes(frame(0x9, "keepalive".getBytes(StandardCharsets.US_ASCII)));
                    client.write(ByteBuffer.wrap(first.toByteArray()));
                    beforeOutput.await();
                    ByteArrayOutputStream rest = new ByteArrayOutputStream();
                    rest.writeBytes(frame(0x2, output));
                    if (endMarker) {
                      rest.writeBytes(frame(0x1, new byte[0]));
                    }
                    client.write(ByteBuffer.wrap(rest.toByteArray()));
                  } catch (Throwable e) {
                    failure = e;
                  } finally {
                    closed.countDown();
                  }
                });
  }

  Throwable failure() {
    return failure;
  }

  private static String readKey(SocketChannel client) throws IOException {
    ByteArrayOutputStream request = new ByteArrayOutputStream();
    ByteBuffer buffer = ByteBuffer.allocate(4096);
    while (!request.toString(StandardCharsets.US_ASCII).contains("\r\n\r\n")) {
      buffer.clear();
      if (client.read(buffer) < 0) {
        throw new IOException("client hung up during the upgrade");
      }
      request.write(buffer.array(), 0, buffer.position());
    }
    Matcher key = KEY.matcher(request.toString(StandardCharsets.US_ASCII));
    if (!key.find()) {
      throw new IOException("upgrade request without a key");
    }
    return key.group(1);
  }

  private static String accept(String key) throws Exception {
    byte[] digest =
        MessageDigest.getInstance("SHA-1")
            .digest(
                (key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").getBytes(StandardCharsets.US_ASCII));
    return Base64.getEncoder().encodeToString(digest);
  }

  /** A final, unmasked server frame with a payload under 126 bytes. */
  private static byte[] frame(int opcode, byte[] payload) {
    byte[] frame = new byte[2 + payload.length];
    frame[0] = (byte) (0x80 | opcode);
    frame[1] = (byte) payload.length;
    System.arraycopy(payload, 0, frame, 2, payload.length);
    return frame;
  }

  @Override
  public void close() throws Exception {
    server.close();
    thread.join(10_000);
  }
}
