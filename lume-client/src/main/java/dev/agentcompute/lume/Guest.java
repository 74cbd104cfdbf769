package dev.agentcompute.lume;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.client.SftpClientFactory;
import org.apache.sshd.sftp.common.SftpConstants;
import org.apache.sshd.sftp.common.SftpException;

/**
 * A login to one macOS guest as {@code lume}, jumping through the Mac host (OpenSSH's {@code
 * ProxyJump}): the guest's port 22 is reached by a {@code direct-tcpip} channel on the shared host
 * connection, and the guest's host key is checked against {@code lume.guest_known_hosts_file} under
 * the seed VM's name (every clone of a seed keeps the seed's host key). Close it after use.
 */
public final class Guest implements AutoCloseable {
  /** What {@code ssh} itself exits with when the connection, not the command, failed. */
  public static final int TRANSPORT_FAILURE = 255;

  private final ClientSession session;
  private final AutoCloseable bridge;

  private Guest(ClientSession session, AutoCloseable bridge) {
    this.session = session;
    this.bridge = bridge;
  }

  static Guest login(SshSessions ssh, HostConnection host, SshEndpoint guest)
      throws LumeException.Unavailable {
    Dialer.Conn channel =
        Dialer.directTcpip(host, guest.host(), guest.port(), SshSessions.DIAL_TIMEOUT);
    OneShotBridge bridge;
    try {
      bridge = new OneShotBridge(channel);
    } catch (IOException e) {
      closeQuietly(channel);
      throw new LumeException.Unavailable("guest ssh transport error: " + e.getMessage(), 0, e);
    }
    try {
      ClientSession session =
          ssh.login(guest, "127.0.0.1", bridge.port(), SshSessions.DIAL_TIMEOUT);
      return new Guest(session, bridge);
    } catch (LumeException.Unavailable e) {
      closeQuietly(bridge);
      throw e;
    }
  }

  /** The result of a guest command; {@link #TRANSPORT_FAILURE} when no exit status arrived. */
  public record Result(
      int exitCode,
      byte[] stdout,
      byte[] stderr,
      boolean stdoutTruncated,
      boolean stderrTruncated,
      boolean timedOut) {
    public String stdoutText() {
      return new String(stdout, StandardCharsets.UTF_8);
    }
  }

  /**
   * Runs a remote command line (see {@link GuestCommand}); each stream keeps its first {@code
   * limit} bytes and the rest is drained.
   *
   * @param timeout exec deadline, {@code null} for none: the command is killed and the result says
   *     {@code timedOut}
   */
  public Result exec(String commandLine, byte[] stdin, int limit, Duration timeout)
      throws LumeException, InterruptedException {
    try {
      RemoteExec.Outcome o =
          RemoteExec.run(session, commandLine, stdin, limit, RemoteExec.Overflow.TRUNCATE, timeout);
      int code = o.exitStatus() == null ? (o.timedOut() ? -1 : TRANSPORT_FAILURE) : o.exitStatus();
      return new Result(
          code, o.stdout(), o.stderr(), o.stdoutTruncated(), o.stderrTruncated(), o.timedOut());
    } catch (IOException e) {
      throw new LumeException.Unavailable("guest ssh transport error: " + e.getMessage(), 0, e);
    }
  }

  /**
   * Reads at most {@code limit + 1} bytes of a regular file over SFTP and closes the stream (no
   * draining).
   *
   * @throws LumeException.NotFound when the file does not exist
   * @throws LumeException when the path is not a regular file ({@code path "<p>" is not a regular
   *     file})
   */
  public byte[] readFile(String path, int limit) throws LumeException {
    try (SftpClient sftp = SftpClientFactory.instance().createSftpClient(session)) {
      SftpClient.Attributes attrs = sftp.stat(path);
      if (!attrs.isRegularFile()) {
        throw new LumeException("path \"" + path + "\" is not a regular file", 0, null);
      }
      try (InputStream in = sftp.read(path)) {
        return in.readNBytes(limit + 1);
      }
    } catch (SftpException e) {
      if (e.getStatus() == SftpConstants.SSH_FX_NO_SUCH_FILE
          || e.getStatus() == SftpConstants.SSH_FX_NO_SUCH_PATH) {
        throw new LumeException.NotFound("no such file " + path, 0);
      }
      throw new LumeException("sftp read " + path + ": " + e.getMessage(), 0, e);
    } catch (IOException e) {
      throw new LumeException.Unavailable("guest ssh transport error: " + e.getMessage(), 0, e);
    }
  }

  /**
   * Writes a file over SFTP ({@code O_WRONLY|O_CREAT|O_TRUNC}); {@code mode} (up to 12 bits, so
   * setuid, setgid and sticky too) is applied before the content is written.
   */
  public void writeFile(String path, byte[] content, Integer mode) throws LumeException {
    try (SftpClient sftp = SftpClientFactory.instance().createSftpClient(session)) {
      try (SftpClient.CloseableHandle handle =
          sftp.open(
              path,
              EnumSet.of(
                  SftpClient.OpenMode.Write,
                  SftpClient.OpenMode.Create,
                  SftpClient.OpenMode.Truncate))) {
        if (mode != null) {
          sftp.setStat(handle, new SftpClient.Attributes().perms(mode & 07777));
        }
        sftp.write(handle, 0, content);
      }
    } catch (SftpException e) {
      if (e.getStatus() == SftpConstants.SSH_FX_NO_SUCH_FILE
          || e.getStatus() == SftpConstants.SSH_FX_NO_SUCH_PATH) {
        throw new LumeException.NotFound("no such directory for " + path, 0);
      }
      throw new LumeException("sftp write " + path + ": " + e.getMessage(), 0, e);
    } catch (IOException e) {
      throw new LumeException.Unavailable("guest ssh transport error: " + e.getMessage(), 0, e);
    }
  }

  @Override
  public void close() {
    session.close(true);
    closeQuietly(bridge);
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception ignored) {
      // closing on the way out; the first failure is the one reported
    }
  }

  /**
   * Joins MINA's guest login to the host channel. MINA's client speaks only to sockets (its own
   * ProxyJump opens a lasting local port forward), so this listens on loopback for exactly one
   * connection, the guest login's own, and stops listening as soon as it arrives.
   */
  private static final class OneShotBridge implements AutoCloseable {
    private final ServerSocket listener;
    private final Dialer.Conn channel;
    private volatile Socket socket;

    OneShotBridge(Dialer.Conn channel) throws IOException {
      this.channel = channel;
      this.listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
      listener.setSoTimeout((int) SshSessions.DIAL_TIMEOUT.toMillis());
      Thread.ofVirtual().name("guest-bridge-accept").start(this::accept);
    }

    int port() {
      return listener.getLocalPort();
    }

    private void accept() {
      try (ServerSocket once = listener) {
        Socket s = once.accept();
        socket = s;
        InputStream fromLogin = s.getInputStream();
        Thread.ofVirtual().start(() -> pump(fromLogin, channel.out()));
        pump(channel.in(), s.getOutputStream());
      } catch (IOException e) {
        // the login fails on its own and reports it
      } finally {
        close();
      }
    }

    private void pump(InputStream from, OutputStream to) {
      byte[] buf = new byte[32 * 1024];
      try {
        for (int n = from.read(buf); n >= 0; n = from.read(buf)) {
          to.write(buf, 0, n);
          to.flush();
        }
      } catch (IOException e) {
        // one side closed; close() below ends the other
      } finally {
        close();
      }
    }

    @Override
    public void close() {
      closeQuietly(listener);
      Socket s = socket;
      if (s != null) {
        closeQuietly(s);
      }
      closeQuietly(channel);
    }
  }
}
