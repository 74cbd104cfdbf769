package dev.agentcompute.incus;

import java.net.URI;
import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.net.SocketFactory;
import javax.net.ssl.SSLParameters;
import org.java_websocket.WebSocket;
import org.java_websocket.client.WebSocketClient;
import org.java_websocket.framing.Framedata;
import org.java_websocket.handshake.ServerHandshake;

/**
 * One of the four exec websockets (control, stdin, stdout, stderr). Output sockets feed a {@link
 * Sink} (a {@link BoundedCapture}, or the {@link StreamPipe} of an attached stream); the others
 * ignore what they receive.
 *
 * <p>An output stream is whole only when its end marker arrived: Incus sends the output as binary
 * messages, then one text message (empty) once the command's end of the pipe is drained, and only
 * then drops the connection. A close without that marker means output may be lost, and {@link
 * #incomplete} says so.
 */
final class ExecSocket extends WebSocketClient {

  /** Where an output socket's bytes go. Called on the socket's read thread. */
  interface Sink {
    void write(ByteBuffer data);

    /**
     * The socket closed: nothing more will be written. {@code lost} is null when the end marker
     * came first, otherwise why the stream is incomplete.
     */
    default void end(String lost) {}
  }

  private final String role;
  private final Sink sink;
  private final boolean verifyHostname;
  private final CountDownLatch opened = new CountDownLatch(1);
  private final CountDownLatch closed = new CountDownLatch(1);
  private volatile Exception failure;
  private volatile boolean handshakeDone;
  private volatile boolean endMarker;
  private volatile long bytes;
  private volatile String closeDescription;

  ExecSocket(URI uri, SocketFactory sockets, boolean verifyHostname, String role, Sink sink) {
    super(uri);
    this.role = role;
    this.sink = sink;
    this.verifyHostname = verifyHostname;
    setSocketFactory(sockets);
    // No lost-connection pinger: it would start a scheduler thread per socket.
    setConnectionLostTimeout(0);
  }

  @Override
  protected void onSetSSLParameters(SSLParameters parameters) {
    if (verifyHostname) {
      super.onSetSSLParameters(parameters);
    }
    // Otherwise the pinning trust manager is the identity check, as for REST calls.
  }

  /**
   * Output sockets never answer incusd's keep-alive pings. Incus pings each exec socket as soon as
   * it connects, and a pong is the only thing the client would ever write on an output socket
   * before its own close. When that write comes after incusd already dropped the connection (a
   * quick command, a busy client), Java-WebSocket's write thread fails with a broken pipe and
   * closes the socket under the read thread, which then never reads the output frames still
   * buffered: the output was lost without any error. Incus needs no pongs (it only pings to keep
   * the connection busy).
   */
  @Override
  public void onWebsocketPing(WebSocket conn, Framedata frame) {
    if (sink == null) {
      super.onWebsocketPing(conn, frame);
    }
  }

  @Override
  public void onOpen(ServerHandshake handshake) {
    handshakeDone = true;
    opened.countDown();
  }

  /** A text message is the end marker (Incus sends it empty); like Incus's client, no output. */
  @Override
  public void onMessage(String message) {
    endMarker = true;
  }

  @Override
  public void onMessage(ByteBuffer data) {
    if (sink != null) {
      if (endMarker) {
        return; // Incus writes nothing after the marker; nothing after it is output
      }
      bytes += data.remaining();
      sink.write(data);
    }
  }

  @Override
  public void onClose(int code, String reason, boolean remote) {
    closeDescription =
        "close code "
            + code
            + (reason == null || reason.isEmpty() ? "" : " (" + reason + ")")
            + (failure == null ? "" : ", " + failure);
    if (sink != null) {
      sink.end(incomplete());
    }
    closed.countDown();
    opened.countDown();
  }

  @Override
  public void onError(Exception e) {
    failure = e;
  }

  /**
   * Waits until the handshake finished or failed; true when it succeeded. The socket may already be
   * closed again: a quick command's output sockets close as soon as it exits.
   */
  boolean awaitOpen(long nanos) throws InterruptedException {
    return opened.await(nanos, TimeUnit.NANOSECONDS) && handshakeDone;
  }

  boolean awaitClosed(long nanos) throws InterruptedException {
    return closed.await(nanos, TimeUnit.NANOSECONDS);
  }

  boolean isFinished() {
    return closed.getCount() == 0;
  }

  Exception failure() {
    return failure;
  }

  /** Which of the four it is: control, stdin, stdout or stderr. */
  String role() {
    return role;
  }

  /** How the socket closed (code, side, failure), or "not closed". */
  String closeDescription() {
    return closeDescription == null ? "not closed" : closeDescription;
  }

  /**
   * Null when the output stream ended with its marker, otherwise why it is incomplete (how many
   * bytes came and how the socket closed). Meaningful once the socket is closed.
   */
  String incomplete() {
    if (endMarker) {
      return null;
    }
    return "the stream closed before its end marker after "
        + bytes
        + " bytes ("
        + closeDescription()
        + ")";
  }
}
