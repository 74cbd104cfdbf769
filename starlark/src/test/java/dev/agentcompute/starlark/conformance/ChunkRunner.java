package dev.agentcompute.starlark.conformance;

import dev.agentcompute.starlark.testmode.TestMode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Runs one chunk through the interpreter's test mode in this JVM, with the settings the {@code
 * STARLARK_TEST_*} variables would carry to {@code dev/starlark --test}, and judges it as
 * starlark-go's harness does: without {@code ###} comments it must succeed; with them it must fail
 * with an error matching each, reported at that comment's line.
 */
final class ChunkRunner {
  /** Generous: a chunk takes milliseconds, but the machine may be loaded. */
  private static final Duration TIMEOUT = Duration.ofSeconds(120);

  private static final Pattern POSITION = Pattern.compile("^.*?:\\d+:\\d+: ");
  private static final Pattern ERROR_PREFIX = Pattern.compile("^(Error( in \\S+)?: )");

  /** How a chunk went; {@code why} explains a failure. */
  record Result(boolean ok, String why) {}

  private ChunkRunner() {}

  static Result run(Chunk c, Plan plan, Profile profile) {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(buf, true, StandardCharsets.UTF_8);
    Map<String, String> env = env(c, plan, profile);
    int[] rc = {-1};
    Throwable[] crash = {null};
    // Deep but bounded recursion in the suite needs a big stack, as the CLI gives its thread.
    Thread t =
        new Thread(
            null,
            () -> {
              try {
                rc[0] = TestMode.run(c.file().path(), plan.runSource(), env, err);
              } catch (Throwable e) {
                crash[0] = e;
              }
            },
            "starlark-conformance",
            1L << 30);
    t.setDaemon(true);
    t.start();
    try {
      t.join(TIMEOUT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(false, "interrupted");
    }
    if (t.isAlive()) {
      return new Result(false, "timed out after " + TIMEOUT.toSeconds() + " s");
    }
    if (crash[0] != null) {
      return new Result(false, "Java exception " + crash[0]);
    }
    return judge(c, rc[0], buf.toString(StandardCharsets.UTF_8));
  }

  private static Map<String, String> env(Chunk c, Plan plan, Profile profile) {
    Set<String> features = new TreeSet<>();
    List<String> options = List.of();
    if (profile == Profile.FULL) {
      options = c.options();
      features.addAll(plan.features());
      features.add("json_encode_indent");
    }
    return Map.of(
        "STARLARK_TEST_MODE", c.file().mode(),
        "STARLARK_TEST_PROFILE", profile.id(),
        "STARLARK_TEST_OPTIONS", String.join(",", options),
        "STARLARK_TEST_FEATURES", String.join(",", features),
        "STARLARK_TEST_PREDECLARED", String.join(",", c.file().predeclared()),
        "STARLARK_TEST_STRIP_LOADS", "");
  }

  static Result judge(Chunk c, int rc, String err) {
    if (c.expects().isEmpty()) {
      return rc == 0
          ? new Result(true, "")
          : new Result(false, "unexpected error (rc=" + rc + "): " + cut(err));
    }
    if (rc == 0) {
      return new Result(
          false,
          "expected an error matching \"" + c.expects().get(0).regexp() + "\", but it succeeded");
    }
    List<String> candidates = candidates(err);
    for (Expectation e : c.expects()) {
      Pattern p;
      try {
        p = Pattern.compile(e.regexp());
      } catch (PatternSyntaxException ex) {
        return new Result(false, "bad expected pattern \"" + e.regexp() + "\": " + ex.getMessage());
      }
      if (candidates.stream().noneMatch(s -> p.matcher(s).find())) {
        return new Result(
            false, "error \"" + cut(err) + "\" does not match \"" + e.regexp() + "\"");
      }
      if (!err.contains(c.file().baseName() + ":" + e.line() + ":")) {
        return new Result(false, "error not reported at line " + e.line() + ": " + cut(err));
      }
    }
    return new Result(true, "");
  }

  /** Each line of the error output, also without its position and {@code Error in f:} prefix. */
  private static List<String> candidates(String err) {
    List<String> out = new ArrayList<>();
    for (String line : err.split("\n", -1)) {
      line = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
      out.add(line);
      String s = POSITION.matcher(line).replaceFirst("");
      out.add(s);
      out.add(ERROR_PREFIX.matcher(s).replaceFirst(""));
    }
    return out;
  }

  private static String cut(String s) {
    s = s.strip();
    return s.length() <= 600 ? s : s.substring(0, 600) + "...";
  }
}
