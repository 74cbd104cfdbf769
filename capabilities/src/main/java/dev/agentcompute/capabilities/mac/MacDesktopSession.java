package dev.agentcompute.capabilities.mac;

import dev.agentcompute.lume.Guest;
import dev.agentcompute.lume.GuestCommand;
import dev.agentcompute.lume.LumeException;
import dev.agentcompute.lume.MacHost;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The desktop stage of a macOS guest's readiness (docs/reference/capabilities.md#macos-guests,
 * after the agent answers): the graphical session belongs to {@code lume} (console owner, Finder
 * and Dock running, no Setup Assistant), its launchd GUI domain exists, the Cua Driver daemon is
 * kickstarted in it, and the Driver reports Accessibility and Screen Recording granted to the
 * daemon itself. Each poll runs one guest script ({@code /bin/bash -lc}) that stops at the first
 * unmet condition and names it.
 */
final class MacDesktopSession {
  /** The Driver daemon's launchd label in the user's GUI domain. */
  static final String DAEMON_LABEL = "com.trycua.cua_driver_daemon";

  private static final Duration STAGE_TIMEOUT = Duration.ofSeconds(30);
  private static final int OUTPUT_LIMIT = 64 * 1024;
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private MacDesktopSession() {}

  /**
   * The guest script, given the tools' paths as {@code $1..$5} (id, stat, pgrep, launchctl,
   * Driver): exit 3 with the unmet condition on stdout, else the Driver's permissions JSON.
   */
  static final String SCRIPT =
      String.join(
          "\n",
          "id=$1 stat=$2 pgrep=$3 launchctl=$4 driver=$5",
          "not() { echo \"$1\"; exit 3; }",
          "uid=$(\"$id\" -u lume) || not 'no user lume in the guest'",
          "owner=$(\"$stat\" -f %Su /dev/console) || not 'the console owner is unknown'",
          "[ \"$owner\" = lume ] || not \"the console belongs to $owner, not lume\"",
          "\"$pgrep\" -x Finder >/dev/null || not 'Finder is not running'",
          "\"$pgrep\" -x Dock >/dev/null || not 'the Dock is not running'",
          "if \"$pgrep\" -x 'Setup Assistant' >/dev/null; then not 'Setup Assistant is running'; fi",
          "\"$launchctl\" print \"gui/$uid\" >/dev/null 2>&1 || not \"launchd has no GUI domain"
              + " gui/$uid\"",
          "\"$launchctl\" kickstart \"gui/$uid/"
              + DAEMON_LABEL
              + "\" >/dev/null 2>&1 || not 'the Cua Driver daemon could not be kickstarted'",
          "exec \"$driver\" permissions status --json");

  /** The remote command line running {@link #SCRIPT} with {@code tools}. */
  static String commandLine(MacHost.GuestPaths tools) {
    return GuestCommand.build(
        List.of(
            "/bin/bash",
            "-lc",
            SCRIPT,
            "desktop-stage",
            tools.id(),
            tools.stat(),
            tools.pgrep(),
            tools.launchctl(),
            tools.cuaDriver()),
        Map.of(),
        "",
        "");
  }

  /**
   * Empty when the desktop is ready for the Driver, else what is not ready yet (for the timeout's
   * error and the progress line).
   */
  static Optional<String> notReady(Guest guest, MacHost.GuestPaths tools)
      throws LumeException, InterruptedException {
    Guest.Result result = guest.exec(commandLine(tools), null, OUTPUT_LIMIT, STAGE_TIMEOUT);
    if (result.timedOut()) {
      return Optional.of("the desktop check did not finish within 30 seconds");
    }
    String out = result.stdoutText().strip();
    if (result.exitCode() == 3) {
      return Optional.of(out);
    }
    if (result.exitCode() != 0) {
      return Optional.of("cua-driver permissions status failed (exit " + result.exitCode() + ")");
    }
    return permissionsMissing(out);
  }

  /**
   * The Driver's {@code permissions status --json}: both grants must be there, and attributed to
   * the daemon (a grant seen through another process does not let the daemon act).
   */
  static Optional<String> permissionsMissing(String json) {
    JsonNode status;
    try {
      status = JSON.readTree(json);
    } catch (RuntimeException e) {
      return Optional.of("cua-driver permissions status printed no JSON object");
    }
    if (status == null || !status.isObject()) {
      return Optional.of("cua-driver permissions status printed no JSON object");
    }
    if (!status.path("accessibility").asBoolean(false)) {
      return Optional.of("Accessibility is not granted to the Cua Driver");
    }
    if (!status.path("screen_recording").asBoolean(false)) {
      return Optional.of("Screen Recording is not granted to the Cua Driver");
    }
    String attribution = status.path("source").path("attribution").asString("");
    if (!attribution.equals("driver-daemon")) {
      return Optional.of(
          "Cua Driver permissions are attributed to \""
              + attribution
              + "\", not to the driver-daemon");
    }
    return Optional.empty();
  }
}
