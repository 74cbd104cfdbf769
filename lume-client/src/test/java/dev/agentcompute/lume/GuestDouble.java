package dev.agentcompute.lume;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.sftp.server.SftpSubsystemFactory;

/**
 * A macOS guest for tests: a REAL MINA SSH server with the SFTP subsystem, running commands with
 * {@code /bin/sh}, accepting only the image's guest key. Every clone answers with the seed's host
 * key (as clones of a macOS seed do), listed in {@link #knownHostsFile()} under {@link #SEED}.
 *
 * <p>DOUBLES: the macOS commands the desktop stage and desktop.* call ({@code id}, {@code stat},
 * {@code pgrep}, {@code launchctl}, {@code cua-driver}), shims at the absolute paths {@link
 * #paths()} names, answering from {@link #desktop}: the console owner, the running processes, the
 * launchd GUI domain, the Driver daemon (started by {@code launchctl kickstart}) and its grants.
 */
public final class GuestDouble implements AutoCloseable {
  public static final String SEED = "ac-seed-macos-tahoe-desktop";

  /** The catalogue image cloned from {@link #SEED}. */
  public static final String IMAGE = "macos/tahoe/desktop";

  /**
   * An image catalogue (the capabilities' YAML) with {@link #IMAGE}: a desktop image, so creating a
   * guest waits for the desktop stage and the Driver (the guest shims).
   */
  public static final String CATALOG =
      """
      schema_version: 1
      images:
        - name: %s
          os: macos
          version: "26"
          kind: vm
          kinds: [vm]
          desktop: true
          description: macOS Tahoe desktop
          seed: %s
          cpus: 4
          memory_mb: 8192
          disk_gb: 100
      """
          .formatted(IMAGE, SEED);

  public final Path home;

  /** The guest's desktop state, which the shims read and tests change. */
  public final Desktop desktop;

  private final Path bin;
  public final List<String> commands = new CopyOnWriteArrayList<>();
  private final KeyPair hostKey = TestKeys.generate();
  private final KeyPair guestKey = TestKeys.generate();
  private final Path keyFile;
  private final Path knownHosts;
  private final SshServer sshd;

  GuestDouble(Path root) throws IOException {
    this.home = Files.createDirectories(root.resolve("Users-lume"));
    this.bin = Files.createDirectories(root.resolve("guest-bin"));
    this.desktop = new Desktop(Files.createDirectories(root.resolve("guest-desktop")));
    writeShims();
    this.keyFile = TestKeys.writePrivate(guestKey, root.resolve("guest_key"));
    this.knownHosts = root.resolve("guest_known_hosts");
    Files.writeString(knownHosts, SEED + " " + TestKeys.publicLine(hostKey) + "\n");
    sshd = SshDoubles.server(0, hostKey, guestKey, home, commands::add, null, aliases());
    sshd.setSubsystemFactories(List.of(new SftpSubsystemFactory()));
    sshd.start();
  }

  /**
   * macOS's own paths ({@link MacHost.GuestPaths#DEFAULT}, what the server uses) lead to the shims
   * and the double's home too.
   */
  private PathAliases aliases() {
    MacHost.GuestPaths real = MacHost.GuestPaths.DEFAULT;
    MacHost.GuestPaths here = paths();
    return new PathAliases(
        Map.of(
            real.home(), here.home(),
            real.cuaDriver(), here.cuaDriver(),
            real.launchctl(), here.launchctl(),
            real.stat(), here.stat(),
            real.pgrep(), here.pgrep(),
            real.id(), here.id()));
  }

  /** Where the shims are, as a Mac host configuration names a guest's tools. */
  public MacHost.GuestPaths paths() {
    return new MacHost.GuestPaths(
        home.toString(),
        bin.resolve("cua-driver").toString(),
        bin.resolve("launchctl").toString(),
        bin.resolve("stat").toString(),
        bin.resolve("pgrep").toString(),
        bin.resolve("id").toString());
  }

  /**
   * A signed-in desktop at first: console owned by lume, Finder and Dock running, the GUI domain
   * present, Accessibility and Screen Recording granted to the daemon, which is not started yet.
   */
  public static final class Desktop {
    final Path dir;

    Desktop(Path dir) throws IOException {
      this.dir = dir;
      consoleOwner("lume");
      processes("Finder", "Dock", "WindowServer");
      guiDomain(true);
      permissions(
          "{\"accessibility\":true,\"screen_recording\":true,"
              + "\"screen_recording_capturable\":null,\"direct_capture_status\":\"not_checked\","
              + "\"source\":{\"attribution\":\"driver-daemon\",\"bundle_id\":\"com.trycua.driver\"}}");
    }

    public void consoleOwner(String user) throws IOException {
      Files.writeString(dir.resolve("console-owner"), user + "\n");
    }

    public void processes(String... names) throws IOException {
      Files.writeString(dir.resolve("processes"), String.join("\n", names) + "\n");
    }

    public void guiDomain(boolean present) throws IOException {
      Path marker = dir.resolve("gui-domain");
      if (present) {
        Files.writeString(marker, "gui/501\n");
      } else {
        Files.deleteIfExists(marker);
      }
    }

    /** What {@code cua-driver permissions status --json} prints. */
    public void permissions(String json) throws IOException {
      Files.writeString(dir.resolve("permissions.json"), json + "\n");
    }

    /** Whether {@code launchctl kickstart} started the Driver daemon. */
    public boolean daemonRunning() {
      return Files.exists(dir.resolve("daemon-running"));
    }

    /** Every launchctl invocation, one per line. */
    public String launchctlLog() throws IOException {
      Path log = dir.resolve("launchctl.log");
      return Files.exists(log) ? Files.readString(log) : "";
    }
  }

  /** A 64x48 PNG, the screenshot the Driver double writes. */
  private static final String PNG_B64 =
      "iVBORw0KGgoAAAANSUhEUgAAAEAAAAAwCAIAAAAuKetIAAAAyElEQVR42tXCkXoQAABG0SvJJEkmk+RKkkwmk2QySSZJkiSTSZJMkiRJriRJkkwmSTKZTJJJ0kv0HP/5Dtj2JzadA5vOU5vOM5vOoU3nyKbz3KajTeeFTeelTefYpnNi0zm16byy6ZzZdM5tOq9tOhc2nTc2nbc2nXc2nfc2nUubzpVN54NN56NN59qm88mm89mm88Wm89Wmk03nm03nu03nh03np03nxqZza9P5ZdP5bdO5s+nc23QebDp/bDqPNp2/Np1/Nv0/5nXi0/fcWfsAAAAASUVORK5CYII=";

  private void writeShims() throws IOException {
    String state = desktop.dir.toString();
    shim(
        "id",
        """
        if [ "$*" = "-u lume" ]; then echo 501; else echo "id: $*: no such user" >&2; exit 1; fi
        """);
    shim(
        "stat",
        """
        # BSD stat: -f %%Su /dev/console prints the console owner's name
        if [ "$*" = "-f %%Su /dev/console" ]; then cat '%1$s/console-owner'
        else echo "stat shim: unsupported: $*" >&2; exit 2; fi
        """
            .formatted(state));
    shim(
        "pgrep",
        """
        [ "$1" = "-x" ] || { echo "pgrep shim: unsupported: $*" >&2; exit 2; }
        grep -q -x -F -- "$2" '%1$s/processes' || exit 1
        echo 401
        """
            .formatted(state));
    shim(
        "launchctl",
        """
        echo "$*" >> '%1$s/launchctl.log'
        case "$1" in
          print) [ "$2" = "gui/501" ] && [ -f '%1$s/gui-domain' ] && { echo "gui/501 = {"; echo "}"; exit 0; }
                 echo "Bad request. Could not find domain for $2" >&2; exit 113 ;;
          kickstart) [ "$2" = "gui/501/com.trycua.cua_driver_daemon" ] && [ -f '%1$s/gui-domain' ] \
                       && { : > '%1$s/daemon-running'; exit 0; }
                     echo "Could not find service \"$2\"" >&2; exit 113 ;;
          *) echo "launchctl shim: unsupported: $*" >&2; exit 2 ;;
        esac
        """
            .formatted(state));
    shim(
        "cua-driver",
        """
        # The Cua Driver CLI on macOS: the daemon runs once launchctl kickstart started it.
        running() { [ -f '%1$s/daemon-running' ]; }
        case "$1" in
          status)
            if running; then echo "Cua Driver daemon is running (pid 4242)."; exit 0; fi
            echo "Cua Driver daemon is not running."; exit 1 ;;
          permissions)
            [ "$2 $3" = "status --json" ] || { echo "error: usage: cua-driver permissions status --json" >&2; exit 2; }
            cat '%1$s/permissions.json'; exit 0 ;;
          dump-docs)
            [ "$2 $3" = "--type mcp" ] || { echo "error: dump-docs requires --type mcp|cli" >&2; exit 2; }
            echo '{"version":"0.22.2-double","tools":[{"name":"click"},{"name":"get_desktop_state"},{"name":"list_apps"}]}'
            exit 0 ;;
          call) shift ;;
          *) echo "error: unrecognized subcommand '$1'" >&2; exit 2 ;;
        esac
        shot=""; tool=""; json=""
        while [ $# -gt 0 ]; do
          case "$1" in
            --screenshot-out-file) shot=$2; shift 2 ;;
            -*) echo "error: unexpected argument '$1' found" >&2; exit 2 ;;
            *) if [ -z "$tool" ]; then tool=$1; else json=$1; fi; shift ;;
          esac
        done
        running || { echo "Cua Driver daemon is not running." >&2; exit 1; }
        case "$tool" in
          get_desktop_state)
            [ -n "$shot" ] && printf '%%s' '%2$s' | base64 -d > "$shot"
            printf '{"platform":"macos","screenshot_width":64,"screenshot_height":48,"screen_width":128,"screen_height":96,"scale_factor":2,"screenshot_mime_type":"image/png"}\n' ;;
          list_apps) printf '{"apps":[{"name":"Finder","pid":401}],"summary":"1 app running"}\n' ;;
          *) echo "Unknown tool: $tool" >&2; exit 64 ;;
        esac
        """
            .formatted(state, PNG_B64));
  }

  private void shim(String name, String body) throws IOException {
    Path file = bin.resolve(name);
    Files.writeString(file, "#!/bin/sh\n# DOUBLE of macOS's " + name + "\n" + body);
    Files.setPosixFilePermissions(
        file, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  int port() {
    return sshd.getPort();
  }

  /** The image's guest key (lume.guest_keys[image]). */
  public Path keyFile() {
    return keyFile;
  }

  /** Lists a different key for the seed, as an impostor guest would present. */
  public void replaceKnownHostKey() throws IOException {
    Files.writeString(knownHosts, SEED + " " + TestKeys.publicLine(TestKeys.generate()) + "\n");
  }

  public Path knownHostsFile() {
    return knownHosts;
  }

  @Override
  public void close() throws IOException {
    sshd.stop(true);
  }
}
