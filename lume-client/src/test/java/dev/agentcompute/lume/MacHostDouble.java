package dev.agentcompute.lume;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.sshd.common.util.net.SshdSocketAddress;
import org.apache.sshd.server.SshServer;

/**
 * The Mac host for tests. REAL: the SSH server (MINA, key auth for the test key only, strict host
 * key on the client side), {@code /bin/sh} running every host command, the direct-tcpip channels.
 * DOUBLES: the Lume daemon ({@link LocalLumeServer}, reached at the host's {@code 127.0.0.1:7777})
 * and shims for {@code lume}, {@code plutil} and {@code launchctl}, called by absolute path from
 * {@link #tools()}. Guests' {@code <ip>:22} lead to the one {@link GuestDouble}.
 *
 * <p>{@link #stop()} and {@link #start()} take the host away and bring it back on the same port.
 */
public final class MacHostDouble implements AutoCloseable {
  /** Printed by test classes so their output says what is real and what is a double. */
  public static final String BANNER =
      "[lume doubles] REAL: MINA SSH server and client, SFTP, /bin/sh, direct-tcpip channels;"
          + " DOUBLES: the Lume 0.5.3 daemon (LocalLumeServer) and the lume/plutil/launchctl shims, the guest's id/stat/pgrep/launchctl/cua-driver shims";

  public final Path root;
  public final Path home;
  public final LocalLumeServer lume;
  public final GuestDouble guest;
  public final List<String> commands = new CopyOnWriteArrayList<>();
  private final KeyPair hostKey = TestKeys.generate();
  private final KeyPair clientKey = TestKeys.generate();
  private final Path identity;
  private final Path knownHosts;
  private final Path bin;
  private final java.util.concurrent.atomic.AtomicInteger sessions =
      new java.util.concurrent.atomic.AtomicInteger();
  private SshServer sshd;
  private int port;

  public MacHostDouble(Path root) throws IOException {
    this.root = root;
    this.home = Files.createDirectories(root.resolve("mac-home"));
    this.bin = Files.createDirectories(root.resolve("mac-bin"));
    this.lume = new LocalLumeServer(home);
    this.guest = new GuestDouble(Files.createDirectories(root.resolve("guest")));
    this.identity = TestKeys.writePrivate(clientKey, root.resolve("agentcompute_key"));
    writeShims();
    start();
    this.knownHosts = root.resolve("known_hosts");
    Files.writeString(
        knownHosts, "[127.0.0.1]:" + port + " " + TestKeys.publicLine(hostKey) + "\n");
  }

  /** Starts (again) on the same port. */
  public synchronized void start() throws IOException {
    sshd = SshDoubles.server(port, hostKey, clientKey, home, commands::add, this::route, aliases());
    sshd.addSessionListener(
        new org.apache.sshd.common.session.SessionListener() {
          @Override
          public void sessionCreated(org.apache.sshd.common.session.Session session) {
            sessions.incrementAndGet();
          }
        });
    sshd.start();
    port = sshd.getPort();
  }

  /** Takes the host away: the server stops and open sessions drop. */
  public synchronized void stop() throws IOException {
    sshd.stop(true);
  }

  /** SSH connections the host has accepted so far. */
  public int sessionsOpened() {
    return sessions.get();
  }

  /** Lists a different key for this host, as a man in the middle would present. */
  public void replaceKnownHostKey() throws IOException {
    Files.writeString(
        knownHosts, "[127.0.0.1]:" + port + " " + TestKeys.publicLine(TestKeys.generate()) + "\n");
  }

  public int port() {
    return port;
  }

  public Path identityFile() {
    return identity;
  }

  public Path knownHostsFile() {
    return knownHosts;
  }

  /** The shims' absolute paths. */
  public MacHost.Tools tools() {
    return new MacHost.Tools(
        bin.resolve("lume").toString(),
        bin.resolve("plutil").toString(),
        bin.resolve("launchctl").toString());
  }

  /** The production tool paths ({@link MacHost.Tools#DEFAULT}) lead to the shims too. */
  private PathAliases aliases() {
    MacHost.Tools real = MacHost.Tools.DEFAULT;
    MacHost.Tools shims = tools();
    return new PathAliases(
        java.util.Map.of(
            real.lume(), shims.lume(),
            real.plutil(), shims.plutil(),
            real.launchctl(), shims.launchctl()));
  }

  /** A client configuration for this host and the guest double. */
  public MacHost.Config config() {
    return new MacHost.Config(
        "127.0.0.1:" + port, identity, knownHosts, guest.knownHostsFile(), tools(), guest.paths());
  }

  private SshdSocketAddress route(SshdSocketAddress asked) {
    if (asked.getHostName().equals(MacHost.API_HOST) && asked.getPort() == MacHost.API_PORT) {
      return new SshdSocketAddress("127.0.0.1", lume.port());
    }
    if (asked.getHostName().startsWith("192.168.64.") && asked.getPort() == 22) {
      return new SshdSocketAddress("127.0.0.1", guest.port());
    }
    return new SshdSocketAddress("127.0.0.1", 1); // nothing listens: the channel open fails
  }

  private void writeShims() throws IOException {
    shim(
        "lume",
        """
        case "${1:-}" in
          ls) cat "$HOME/.lume-double/ls.json" ;;
          run) [ "${2:-}" = "--help" ] && echo "  --vnc <vnc>   VNC policy for this run (disabled)" ;;
          *) echo "lume shim: unsupported: $*" >&2; exit 2 ;;
        esac
        """);
    shim(
        "plutil",
        """
        # plutil -extract KEY raw -o - FILE | plutil -replace KEY -string VALUE FILE
        case "${1:-}" in
          -extract)
            v=$(sed -n "s/^ *\\"$2\\": \\"\\(.*\\)\\",\\{0,1\\}\\$/\\1/p" "$6")
            [ -n "$v" ] || { echo "Could not extract value, error: No value at that key path" >&2; exit 1; }
            printf '%s' "$v" ;;
          -replace)
            sed "s/^\\( *\\"$2\\": \\"\\)[^\\"]*\\"/\\1$4\\"/" "$5" > "$5.shim" && mv "$5.shim" "$5" ;;
          *) echo "plutil shim: unsupported: $*" >&2; exit 2 ;;
        esac
        """);
    shim("launchctl", "echo \"launchctl shim: $*\"\n");
  }

  private void shim(String name, String body) throws IOException {
    Path file = bin.resolve(name);
    Files.writeString(file, "#!/bin/sh\n# DOUBLE of the Mac's " + name + "\n" + body);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @Override
  public void close() throws IOException {
    sshd.stop(true);
    guest.close();
    lume.close();
  }
}
