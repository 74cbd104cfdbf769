package dev.agentcompute.lume;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import org.apache.sshd.client.channel.ChannelDirectTcpip;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.util.net.SshdSocketAddress;

/** Opens one byte stream to the Lume API per request. */
interface Dialer {
  Conn open() throws LumeException.Unavailable;

  /** Where requests go, for the {@code Host} header. */
  String authority();

  /** One bidirectional stream; closing it ends the request. */
  interface Conn extends Closeable {
    InputStream in();

    OutputStream out();
  }

  /**
   * Through the Mac host: a fresh {@code direct-tcpip} channel on the shared SSH connection for
   * every request (never a local port forward, so nothing listens on this machine).
   */
  static Dialer throughHost(HostConnection host, String targetHost, int targetPort) {
    return new Dialer() {
      @Override
      public Conn open() throws LumeException.Unavailable {
        return directTcpip(host, targetHost, targetPort, SshSessions.DIAL_TIMEOUT);
      }

      @Override
      public String authority() {
        return targetHost + ":" + targetPort;
      }
    };
  }

  /** A plain TCP connection: for tests against a local Lume double. */
  static Dialer tcp(String host, int port, Duration timeout) {
    return new Dialer() {
      @Override
      public Conn open() throws LumeException.Unavailable {
        Socket socket = new Socket();
        try {
          socket.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
          InputStream in = socket.getInputStream();
          OutputStream out = socket.getOutputStream();
          return new Conn() {
            @Override
            public InputStream in() {
              return in;
            }

            @Override
            public OutputStream out() {
              return out;
            }

            @Override
            public void close() throws IOException {
              socket.close();
            }
          };
        } catch (IOException e) {
          try {
            socket.close();
          } catch (IOException ignored) {
            // the connect failure is what matters
          }
          throw new LumeException.Unavailable(
              "connect " + authority() + ": " + SshSessions.describe(e), 0, e);
        }
      }

      @Override
      public String authority() {
        return host + ":" + port;
      }
    };
  }

  /** Opens {@code direct-tcpip} to {@code host:port} on the host connection's session. */
  static Conn directTcpip(HostConnection connection, String host, int port, Duration timeout)
      throws LumeException.Unavailable {
    ClientSession session = connection.session();
    ChannelDirectTcpip channel;
    try {
      channel =
          session.createDirectTcpipChannel(
              new SshdSocketAddress("127.0.0.1", 0), new SshdSocketAddress(host, port));
      channel.open().verify(timeout);
    } catch (IOException | RuntimeException e) {
      if (!session.isOpen()) {
        connection.discard(session);
      }
      throw new LumeException.Unavailable(
          "ssh channel to "
              + host
              + ":"
              + port
              + " via "
              + connection.endpoint().host()
              + ": "
              + SshSessions.describe(e),
          0,
          e);
    }
    return new Conn() {
      @Override
      public InputStream in() {
        return channel.getInvertedOut();
      }

      @Override
      public OutputStream out() {
        return channel.getInvertedIn();
      }

      @Override
      public void close() {
        channel.close(true);
      }
    };
  }
}
