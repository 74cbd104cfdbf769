package dev.agentcompute.incus;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.net.SocketFactory;
import javax.net.ssl.SSLParameters;
import org.java_websocket.client.WebSocketClient;
import org.java_websocket.handshake.ServerHandshake;

/**
 * One of the four exec websockets (control, stdin, stdout, stderr). Output sockets feed a {@link
 * Sink} (a {@link BoundedCapture}, or the {@link StreamPipe} of an attached stream); the others
 * ignore what they receive.
 */
final class ExecSocket extends WebSocketClient {

  /** Where an output socket's bytes go. Called on the socket's read thread. */
  interface Sink {
    void write(ByteBuffer data);

    /** The socket closed: nothing more will be written. */
    default void end() {}
  }

  private final Sink sink;
  private final boolean verifyHostname;
  private final CountDownLatch opened = new CountDownLatch(1);
  private final CountDownLatch closed = new CountDownLatch(1);
  private volatile Exception failure;
  private volatile boolean handshakeDone;

  ExecSocket(URI uri, SocketFactory sockets, boolean verifyHostname, Sink sink) {
    super(uri);
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

  @Override
  public void onOpen(ServerHandshake handshake) {
    handshakeDone = true;
    opened.countDown();
  }

  @Override
  public void onMessage(String message) {
    if (sink != null) {
      sink.write(ByteBuffer.wrap(message.getBytes(StandardCharsets.UTF_8)));
    }
  }

  @Override
  public void onMessage(ByteBuffer bytes) {
    if (sink != null) {
      sink.write(bytes);
    }
  }

  @Override
  public void onClose(int code, String reason, boolean remote) {
    if (sink != null) {
      sink.end();
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
}
