package dev.agentcompute.lume;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Mac host, the module's front door: one SSH connection (user {@code agentcompute}, key auth,
 * strict known_hosts, 30 s dial timeout, dialled again when lost) carrying the Lume API ({@link
 * #api()}), host scripts ({@link #runScript}) and guest logins ({@link #guest}).
 */
public final class MacHost implements AutoCloseable {
  /** The login on the Mac host. */
  public static final String HOST_USER = "agentcompute";

  /** The login in macOS guests. */
  public static final String GUEST_USER = "lume";

  /** Where the Lume API listens on the Mac. */
  static final String API_HOST = "127.0.0.1";

  static final int API_PORT = 7777;

  /** Host script output cap, per stream; more is an error. */
  static final int SCRIPT_OUTPUT_LIMIT = 1 << 20;

  /**
   * How to reach the host and its tools.
   *
   * @param host {@code host} or {@code host:port} (port 22 by default)
   * @param tools absolute paths of the host commands scripts call
   * @param guestPaths where the desktop stage and desktop.* find things in guests
   */
  public record Config(
      String host,
      Path identityFile,
      Path knownHostsFile,
      Path guestKnownHostsFile,
      Tools tools,
      GuestPaths guestPaths) {
    public Config {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(identityFile, "identityFile");
      Objects.requireNonNull(knownHostsFile, "knownHostsFile");
      Objects.requireNonNull(guestKnownHostsFile, "guestKnownHostsFile");
      Objects.requireNonNull(tools, "tools");
      Objects.requireNonNull(guestPaths, "guestPaths");
    }

    /** A Mac host whose guests are stock macOS with the Cua Driver installed. */
    public Config(
        String host,
        Path identityFile,
        Path knownHostsFile,
        Path guestKnownHostsFile,
        Tools tools) {
      this(host, identityFile, knownHostsFile, guestKnownHostsFile, tools, GuestPaths.DEFAULT);
    }

    /** The host name without a port, as guests' VNC URLs are rewritten to. */
    public String hostName() {
      return split(host)[0];
    }

    int port() {
      String[] parts = split(host);
      return parts.length == 1 ? 22 : Integer.parseInt(parts[1]);
    }

    private static String[] split(String host) {
      int colon = host.lastIndexOf(':');
      if (colon > 0 && host.indexOf(':') == colon) {
        return new String[] {host.substring(0, colon), host.substring(colon + 1)};
      }
      return new String[] {host};
    }
  }

  /** Absolute paths of the host commands (a VNC-disabled lume build lives in the user's bin). */
  public record Tools(String lume, String plutil, String launchctl) {
    public static final Tools DEFAULT =
        new Tools("/Users/agentcompute/bin/lume", "/usr/bin/plutil", "/bin/launchctl");
  }

  /**
   * Where things are in a macOS guest: the {@code lume} user's home (the Driver's working
   * directory), the Cua Driver CLI, and the system tools the desktop readiness stage asks (console
   * owner, processes, launchd).
   */
  public record GuestPaths(
      String home, String cuaDriver, String launchctl, String stat, String pgrep, String id) {
    public static final GuestPaths DEFAULT =
        new GuestPaths(
            "/Users/lume",
            "/usr/local/bin/cua-driver",
            "/bin/launchctl",
            "/usr/bin/stat",
            "/usr/bin/pgrep",
            "/usr/bin/id");
  }

  private final Config config;
  private final SshSessions ssh;
  private final HostConnection connection;
  private final LumeClient api;
  private final JsonMapper json = JsonMapper.builder().build();

  private MacHost(Config config) {
    this.config = config;
    this.ssh = new SshSessions();
    this.connection =
        new HostConnection(
            ssh,
            new SshEndpoint(
                config.hostName(),
                config.port(),
                HOST_USER,
                config.identityFile(),
                config.knownHostsFile(),
                config.hostName()),
            SshSessions.DIAL_TIMEOUT);
    this.api = new LumeClient(Dialer.throughHost(connection, API_HOST, API_PORT));
  }

  /** A host handle; nothing is dialled until first use. */
  public static MacHost of(Config config) {
    return new MacHost(config);
  }

  public Config config() {
    return config;
  }

  /** The Lume API on the host. */
  public LumeClient api() {
    return api;
  }

  /** Dials (or reuses) the connection; the host is reachable and accepted our key. */
  public void checkReachable() throws LumeException.Unavailable {
    connection.session();
  }

  /**
   * Runs {@code script} with {@code /bin/sh} under {@code set -eu}; returns its stdout.
   *
   * @throws LumeException naming the exit status and stderr when it fails, or when either stream
   *     passes 1 MiB
   */
  public String runScript(String script, Duration timeout)
      throws LumeException, InterruptedException {
    String command = "/bin/sh -c " + Shell.quote("set -eu\n" + script);
    RemoteExec.Outcome o;
    var session = connection.session();
    try {
      o =
          RemoteExec.run(
              session, command, null, SCRIPT_OUTPUT_LIMIT, RemoteExec.Overflow.FAIL, timeout);
    } catch (IOException e) {
      if (!session.isOpen()) {
        connection.discard(session);
      }
      throw new LumeException.Unavailable(
          "host script on " + config.host() + ": " + SshSessions.describe(e), 0, e);
    }
    if (o.overflowed()) {
      throw new LumeException(
          "host script output exceeds " + SCRIPT_OUTPUT_LIMIT + " bytes on a stream", 0, null);
    }
    if (o.timedOut()) {
      throw new LumeException("host script timed out after " + timeout, 0, null);
    }
    if (o.exitStatus() == null || o.exitStatus() != 0) {
      String err = new String(o.stderr(), StandardCharsets.UTF_8).strip();
      throw new LumeException(
          "host script failed (exit " + o.exitStatus() + ")" + (err.isEmpty() ? "" : ": " + err),
          0,
          null);
    }
    return new String(o.stdout(), StandardCharsets.UTF_8);
  }

  private static final Duration SCRIPT_TIMEOUT = Duration.ofMinutes(2);

  /** Every VM on the host ({@code lume ls --format json}), including other accounts' seeds. */
  public List<LumeVm> inventory() throws LumeException, InterruptedException {
    String out =
        runScript(Shell.quote(config.tools().lume()) + " ls --format json", SCRIPT_TIMEOUT);
    try {
      List<LumeVm> vms =
          json.readValue(out.strip().isEmpty() ? "[]" : out, new TypeReference<>() {});
      return vms == null ? List.of() : vms;
    } catch (RuntimeException e) {
      throw new LumeException("lume ls: invalid JSON: " + e.getMessage(), 0, e);
    }
  }

  /** The VM's MAC address from its {@code ~/.lume/<vm>/config.json}. */
  public String macAddress(String vm) throws LumeException, InterruptedException {
    return runScript(
            Shell.quote(config.tools().plutil())
                + " -extract macAddress raw -o - \"$HOME/.lume/\""
                + Shell.quote(vm)
                + "/config.json",
            SCRIPT_TIMEOUT)
        .strip();
  }

  /**
   * Copies the seed's {@code machineIdentifier} into the clone's config.json (temp file then {@code
   * mv}, so Lume never reads a half-written file) and checks it took: a clone then keeps the seed's
   * identity, which macOS's activation and the guest's host key rely on.
   */
  public void pinMachineIdentifier(String seed, String clone)
      throws LumeException, InterruptedException {
    String plutil = Shell.quote(config.tools().plutil());
    String script =
        String.join(
            "\n",
            "seed=\"$HOME/.lume/\"" + Shell.quote(seed) + "/config.json",
            "clone=\"$HOME/.lume/\"" + Shell.quote(clone) + "/config.json",
            "id=$(" + plutil + " -extract machineIdentifier raw -o - \"$seed\")",
            "tmp=$(mktemp \"$clone.XXXXXX\")",
            "trap 'rm -f \"$tmp\"' EXIT",
            "cp \"$clone\" \"$tmp\"",
            plutil + " -replace machineIdentifier -string \"$id\" \"$tmp\"",
            "mv \"$tmp\" \"$clone\"",
            "test \"$(" + plutil + " -extract machineIdentifier raw -o - \"$clone\")\" = \"$id\"");
    runScript(script, SCRIPT_TIMEOUT);
  }

  /**
   * Writes {@code content} to {@code $HOME/<relative>} atomically (a temp file in the same
   * directory, then {@code mv}), creating the directory.
   */
  public void writeHomeFile(String relative, String content)
      throws LumeException, InterruptedException {
    String file = "\"$HOME/\"" + Shell.quote(relative);
    runScript(
        "f="
            + file
            + "\nmkdir -p \"$(dirname \"$f\")\"\ntmp=$(mktemp \"$f.XXXXXX\")\n"
            + "trap 'rm -f \"$tmp\"' EXIT\nprintf '%s' "
            + Shell.quote(content)
            + " > \"$tmp\"\nmv \"$tmp\" \"$f\"",
        SCRIPT_TIMEOUT);
  }

  /**
   * The one-line files {@code $HOME/<dir>/*.json}, by file name (without {@code .json}). Listing
   * concatenates them in one script, so it costs one round trip however many there are.
   */
  public java.util.Map<String, String> readHomeJsonFiles(String dir)
      throws LumeException, InterruptedException {
    String out =
        runScript(
            "for f in \"$HOME/\""
                + Shell.quote(dir)
                + "/*.json; do\n  [ -f \"$f\" ] || continue\n"
                + "  printf '==> %s\\n' \"$(basename \"$f\" .json)\"\n"
                + "  tr -d '\\n' < \"$f\"\n  printf '\\n'\ndone",
            SCRIPT_TIMEOUT);
    java.util.Map<String, String> files = new java.util.LinkedHashMap<>();
    String[] lines = out.split("\n", -1);
    for (int i = 0; i + 1 < lines.length; i += 2) {
      if (lines[i].startsWith("==> ")) {
        files.put(lines[i].substring(4), lines[i + 1]);
      }
    }
    return files;
  }

  /** Removes {@code $HOME/<relative>}; a missing file is not an error. */
  public void deleteHomeFile(String relative) throws LumeException, InterruptedException {
    runScript("rm -f \"$HOME/\"" + Shell.quote(relative), SCRIPT_TIMEOUT);
  }

  /**
   * Checks the lume build agentcompute needs is installed: {@link Tools#lume()} is executable and
   * its {@code run --help} offers {@code --vnc <vnc>} (a stock build has no way to disable VNC).
   */
  public void checkLumeBinary() throws LumeException, InterruptedException {
    String lume = Shell.quote(config.tools().lume());
    try {
      runScript(
          "test -x " + lume + "\n" + lume + " run --help | grep -F -q -- '--vnc <vnc>'",
          SCRIPT_TIMEOUT);
    } catch (LumeException.Unavailable e) {
      throw e;
    } catch (LumeException e) {
      throw new LumeException(
          "lume on this host cannot start guests with VNC disabled: "
              + config.tools().lume()
              + " is not executable or its run --help lacks --vnc <vnc>",
          0,
          e);
    }
  }

  /** Where the serve logs end now; see {@link #vmLimitLoggedSince}. */
  public ServeLogs.Cursor serveLogCursor() throws LumeException, InterruptedException {
    return ServeLogs.cursor(this);
  }

  /** True when Lume logged Apple's two-VM limit after {@code cursor}. */
  public boolean vmLimitLoggedSince(ServeLogs.Cursor cursor)
      throws LumeException, InterruptedException {
    return ServeLogs.limitSince(this, cursor);
  }

  /**
   * Logs in to a guest as {@code lume} through this host.
   *
   * @param seed the seed VM name its host key is listed under in the guest known_hosts file
   * @param key the image's guest key
   */
  public Guest guest(String ip, String seed, Path key) throws LumeException.Unavailable {
    return Guest.login(
        ssh,
        connection,
        new SshEndpoint(ip, 22, GUEST_USER, key, config.guestKnownHostsFile(), seed));
  }

  @Override
  public void close() {
    connection.close();
    ssh.close();
  }
}
