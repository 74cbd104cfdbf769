package dev.agentcompute.ovn;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import javax.net.ssl.SSLSocket;

/** A connected byte stream to an OVSDB server: one reader and one writer may use it at once. */
interface Transport extends AutoCloseable {
  InputStream input();

  OutputStream output();

  @Override
  void close();

  static Transport open(OvsdbEndpoint endpoint, Duration connectTimeout) throws IOException {
    return switch (endpoint) {
      case OvsdbEndpoint.Tcp tcp -> socket(plain(tcp.host(), tcp.port(), connectTimeout));
      case OvsdbEndpoint.Unix unix -> unix(unix);
      case OvsdbEndpoint.Tls tls -> {
        Socket raw = plain(tls.host(), tls.port(), connectTimeout);
        try {
          SSLSocket ssl =
              (SSLSocket)
                  TlsContexts.create(tls.tls())
                      .getSocketFactory()
                      .createSocket(raw, tls.host(), tls.port(), true);
          ssl.setUseClientMode(true);
          ssl.setSoTimeout((int) connectTimeout.toMillis());
          ssl.startHandshake();
          ssl.setSoTimeout(0);
          yield socket(ssl);
        } catch (IOException | RuntimeException e) {
          raw.close();
          throw e;
        }
      }
    };
  }

  private static Socket plain(String host, int port, Duration connectTimeout) throws IOException {
    Socket socket = new Socket();
    try {
      socket.connect(new InetSocketAddress(host, port), (int) connectTimeout.toMillis());
      socket.setTcpNoDelay(true);
      return socket;
    } catch (IOException e) {
      socket.close();
      throw e;
    }
  }

  private static Transport socket(Socket socket) throws IOException {
    return of(socket.getInputStream(), socket.getOutputStream(), socket);
  }

  /** A transport over {@code in} and {@code out} that closes {@code connection}. */
  private static Transport of(InputStream in, OutputStream out, java.io.Closeable connection) {
    return new Transport() {
      @Override
      public InputStream input() {
        return in;
      }

      @Override
      public OutputStream output() {
        return out;
      }

      @Override
      public void close() {
        try {
          connection.close();
        } catch (IOException ignored) {
          // closing is best effort; the reader sees the end of stream either way
        }
      }
    };
  }

  /**
   * Unix sockets go through a {@link SocketChannel} read and written directly (not through {@code
   * Channels.newInputStream}, whose streams share one lock, so a blocked read would stall every
   * write).
   */
  private static Transport unix(OvsdbEndpoint.Unix endpoint) throws IOException {
    SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
    try {
      channel.connect(UnixDomainSocketAddress.of(endpoint.socket()));
    } catch (IOException e) {
      channel.close();
      throw e;
    }
    InputStream in =
        new InputStream() {
          @Override
          public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
          }

          @Override
          public int read(byte[] buffer, int offset, int length) throws IOException {
            return length == 0 ? 0 : channel.read(ByteBuffer.wrap(buffer, offset, length));
          }
        };
    OutputStream out =
        new OutputStream() {
          @Override
          public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
          }

          @Override
          public void write(byte[] buffer, int offset, int length) throws IOException {
            ByteBuffer bytes = ByteBuffer.wrap(buffer, offset, length);
            while (bytes.hasRemaining()) {
              channel.write(bytes);
            }
          }
        };
    return of(in, out, channel);
  }
}
