package dev.agentcompute.incus;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.net.SocketFactory;

/**
 * A test transport for one websocket that forces the interleaving incusd and a busy client produced
 * once in a few hundred quick execs: the client reads the upgrade answer (and the ping with it) at
 * once, but whatever it writes after its upgrade request is held until {@code serverGone} (incusd
 * already hung up), and its next read waits for that too and then for the socket to be closed under
 * it (given {@link #CLOSE_GRACE}; a client that writes nothing never closes it). {@link #firstRead}
 * is released once the first read returned.
 */
final class GatedSockets extends SocketFactory {

  /** How long the read waits for a write failure to close the socket; not a correctness bound. */
  static final long CLOSE_GRACE_MS = 2_000;

  final CountDownLatch firstRead = new CountDownLatch(1);
  final CountDownLatch closedUnderReader = new CountDownLatch(1);
  private final SocketFactory real;
  private final CountDownLatch serverGone;

  GatedSockets(SocketFactory real, CountDownLatch serverGone) {
    this.real = real;
    this.serverGone = serverGone;
  }

  @Override
  public Socket createSocket() throws IOException {
    return new Gated(real.createSocket());
  }

  @Override
  public Socket createSocket(String host, int port) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Socket createSocket(String host, int port, java.net.InetAddress local, int localPort) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Socket createSocket(java.net.InetAddress host, int port) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Socket createSocket(
      java.net.InetAddress address, int port, java.net.InetAddress local, int localPort) {
    throw new UnsupportedOperationException();
  }

  private static void await(CountDownLatch latch) throws IOException {
    try {
      if (!latch.await(30, TimeUnit.SECONDS)) {
        throw new IOException("test gate never opened");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted at a test gate", e);
    }
  }

  private final class Gated extends Socket {
    private final Socket socket;
    private int reads;

    Gated(Socket socket) {
      this.socket = socket;
    }

    @Override
    public void connect(SocketAddress endpoint, int timeout) throws IOException {
      socket.connect(endpoint, timeout);
    }

    @Override
    public boolean isConnected() {
      return socket.isConnected();
    }

    @Override
    public boolean isClosed() {
      return socket.isClosed();
    }

    @Override
    public void setTcpNoDelay(boolean on) {}

    @Override
    public void setReuseAddress(boolean on) {}

    @Override
    public void setReceiveBufferSize(int size) {}

    @Override
    public synchronized void close() throws IOException {
      socket.close();
      closedUnderReader.countDown();
    }

    @Override
    public InputStream getInputStream() throws IOException {
      InputStream in = socket.getInputStream();
      return new InputStream() {
        @Override
        public int read() throws IOException {
          byte[] one = new byte[1];
          return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
          if (reads++ > 0) {
            await(serverGone);
            try {
              closedUnderReader.await(CLOSE_GRACE_MS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          int n = in.read(buffer, offset, length);
          firstRead.countDown();
          return n;
        }
      };
    }

    @Override
    public OutputStream getOutputStream() throws IOException {
      OutputStream out = socket.getOutputStream();
      return new OutputStream() {
        @Override
        public void write(int b) throws IOException {
          write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] data, int offset, int length) throws IOException {
          if (firstRead.getCount() == 0) {
            await(serverGone); // everything after the upgrade request
          }
          out.write(data, offset, length);
        }

        @Override
        public void flush() throws IOException {
          out.flush();
        }
      };
    }
  }
}
