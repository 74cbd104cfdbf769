package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.ExecRequest;
import dev.agentcompute.capabilities.model.ExecResult;
import dev.agentcompute.capabilities.model.GuestOs;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.platform.InstanceDriver;
import dev.agentcompute.capabilities.platform.PlatformRouter;
import dev.agentcompute.capabilities.screenshots.ScreenshotStore;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the Cua Driver CLI (the platform's {@link InstanceDriver#cuaDriverPath}, {@code
 * /usr/local/bin/cua-driver} in stock guests) in a Linux or macOS guest through the platform's exec
 * and file ports (docs/reference/capabilities.md#desktops), so every platform with exec and files
 * gets desktop.* unchanged (Windows guests: {@link WindowsDriver}). The guest user, working
 * directory, environment and daemon socket depend on the guest OS. Output goes to a random file in
 * {@code /tmp} that is read back with a bound (exec keeps only 64 KiB of a stream, a Driver JSON
 * may be up to 4 MiB), as does the screenshot file; both are deleted after.
 */
final class DesktopDriver {
  static final int OUTPUT_LIMIT = 4 * 1024 * 1024;
  static final Duration CALL_TIMEOUT = Duration.ofMinutes(2);
  static final Duration STATUS_TIMEOUT = Duration.ofSeconds(30);

  /**
   * Runs the Driver with stdout into {@code $1}, then reports the exit code and both file sizes on
   * its own stdout, so the sizes are known before anything is read back.
   */
  private static final String CAPTURE =
      "o=$1; p=$2; shift 2; \"$@\" >\"$o\"; rc=$?; "
          + "printf 'rc=%s out=%s png=%s\\n' \"$rc\" \"$(wc -c <\"$o\" 2>/dev/null || echo 0)\" "
          + "\"$(wc -c <\"$p\" 2>/dev/null || echo 0)\"; exit $rc";

  private static final Pattern SIZES = Pattern.compile("rc=(-?\\d+) out=\\s*(\\d+) png=\\s*(\\d+)");

  private final PlatformRouter router;
  private final SecureRandom random = new SecureRandom();

  DesktopDriver(PlatformRouter router) {
    this.router = router;
  }

  /** Who runs the Driver in a guest: user, working directory, environment, socket arguments. */
  record Profile(Optional<String> user, String cwd, Map<String, String> env, List<String> socket) {
    static Profile of(GuestOs os, InstanceDriver platform) {
      return switch (os) {
        case LINUX ->
            new Profile(
                Optional.of("1000"),
                "/home/automation",
                Map.of("HOME", "/home/automation", "XDG_RUNTIME_DIR", "/run/user/1000"),
                List.of("--socket", "/run/user/1000/cua-driver.sock"));
        // The Mac exec port runs as the guest's lume user; it has no numeric uid to give.
        case MACOS -> {
          String home = platform.macGuestHome();
          yield new Profile(Optional.empty(), home, Map.of("HOME", home), List.of());
        }
        // Windows has no CLI path: its Driver proxy speaks MCP over an attached exec.
        case WINDOWS ->
            throw new IllegalArgumentException("Windows guests are driven by WindowsDriver");
      };
    }
  }

  /** What one Driver run produced; {@code png} is empty when no screenshot was written. */
  record Output(int exitCode, byte[] stdout, String stderr, byte[] png) {}

  /** {@code cua-driver status}: true when the daemon answers (exit 0). */
  boolean status(Sandbox sandbox, SandboxInstance instance, GuestOs os) {
    InstanceDriver platform = router.instances(sandbox);
    Profile profile = Profile.of(os, platform);
    List<String> argv = new ArrayList<>(List.of(platform.cuaDriverPath(), "status"));
    argv.addAll(profile.socket());
    ExecResult result = exec(sandbox, instance, profile, argv, STATUS_TIMEOUT);
    return !result.timed_out() && result.exit_code() == 0;
  }

  /** {@code cua-driver <args>} without a daemon socket (dump-docs, permissions). */
  Output plain(Sandbox sandbox, SandboxInstance instance, GuestOs os, List<String> args) {
    return capture(sandbox, instance, os, args, false);
  }

  /** {@code cua-driver call --socket S --screenshot-out-file P <tool> <json>}. */
  Output call(Sandbox sandbox, SandboxInstance instance, GuestOs os, String tool, String json) {
    List<String> args = new ArrayList<>(List.of("call"));
    args.addAll(Profile.of(os, router.instances(sandbox)).socket());
    args.add("--screenshot-out-file");
    args.add(SCREENSHOT_MARKER);
    args.add(tool);
    args.add(json);
    return capture(sandbox, instance, os, args, true);
  }

  /** Where {@link #call} puts the screenshot path, replaced by the random file name. */
  private static final String SCREENSHOT_MARKER = "\0png";

  private Output capture(
      Sandbox sandbox, SandboxInstance instance, GuestOs os, List<String> args, boolean shot) {
    InstanceDriver driver = router.instances(sandbox);
    Profile profile = Profile.of(os, driver);
    byte[] token = new byte[16];
    random.nextBytes(token);
    String base = "/tmp/cua-" + HexFormat.of().formatHex(token);
    String out = base + ".json";
    String png = base + ".png";
    List<String> argv =
        new ArrayList<>(List.of("sh", "-c", CAPTURE, "sh", out, png, driver.cuaDriverPath()));
    for (String arg : args) {
      argv.add(arg.equals(SCREENSHOT_MARKER) ? png : arg);
    }
    try {
      ExecResult result = exec(sandbox, instance, profile, argv, CALL_TIMEOUT);
      if (result.timed_out()) {
        throw Errors.of("Driver did not answer within %d seconds", CALL_TIMEOUT.toSeconds());
      }
      Matcher sizes = SIZES.matcher(result.stdout());
      if (!sizes.find()) {
        throw Errors.of(
            "Driver could not be run in instance \"%s\": %s",
            instance.name(), firstLine(result.stderr()));
      }
      long outBytes = Long.parseLong(sizes.group(2));
      long pngBytes = Long.parseLong(sizes.group(3));
      if (outBytes > OUTPUT_LIMIT) {
        throw Errors.of("Driver output exceeds the 4 MiB JSON limit");
      }
      byte[] stdout =
          outBytes == 0 ? new byte[0] : read(driver, sandbox, instance, out, OUTPUT_LIMIT);
      if (stdout.length > OUTPUT_LIMIT) {
        throw Errors.of("Driver output exceeds the 4 MiB JSON limit");
      }
      byte[] image = new byte[0];
      if (shot && pngBytes > 0) {
        if (pngBytes > ScreenshotStore.MAX_IMAGE_BYTES) {
          throw Errors.of(
              "screenshot of %d bytes exceeds the %d byte limit",
              pngBytes, ScreenshotStore.MAX_IMAGE_BYTES);
        }
        image = read(driver, sandbox, instance, png, ScreenshotStore.MAX_IMAGE_BYTES);
      }
      return new Output(Integer.parseInt(sizes.group(1)), stdout, result.stderr(), image);
    } finally {
      exec(sandbox, instance, profile, List.of("rm", "-f", out, png), STATUS_TIMEOUT);
    }
  }

  private static byte[] read(
      InstanceDriver driver, Sandbox sandbox, SandboxInstance instance, String path, int limit) {
    return driver.readFile(sandbox, instance.name(), path, limit);
  }

  private ExecResult exec(
      Sandbox sandbox,
      SandboxInstance instance,
      Profile profile,
      List<String> argv,
      Duration timeout) {
    return router
        .instances(sandbox)
        .exec(
            sandbox,
            instance.name(),
            new ExecRequest(
                argv,
                profile.env(),
                Optional.of(profile.cwd()),
                profile.user(),
                Optional.of(""),
                Optional.of(timeout)));
  }

  static String firstLine(String text) {
    String trimmed = text == null ? "" : text.strip();
    int newline = trimmed.indexOf('\n');
    String line = newline < 0 ? trimmed : trimmed.substring(0, newline);
    return line.length() > 200 ? line.substring(0, 200) + "..." : line;
  }
}
