package dev.agentcompute.lume;

import java.time.Duration;

/**
 * Lume's serve logs ({@code ~/lume-serve.out.log}, {@code ~/lume-serve.err.log}), read from a
 * cursor: Lume starts a VM asynchronously, so a refusal by Apple's Virtualization framework (at
 * most two macOS guests per host, for every account together) shows up only there.
 */
public final class ServeLogs {
  /** What Virtualization.framework says when a third macOS guest would start. */
  static final String VM_LIMIT = "The number of virtual machines exceeds the limit";

  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private ServeLogs() {}

  /** Byte offsets of the two logs' ends. */
  public record Cursor(long out, long err) {}

  static Cursor cursor(MacHost host) throws LumeException, InterruptedException {
    String out =
        host.runScript(
            "for f in \"$HOME/lume-serve.out.log\" \"$HOME/lume-serve.err.log\"; do\n"
                + "  if [ -f \"$f\" ]; then wc -c < \"$f\" | tr -d ' '; else echo 0; fi\n"
                + "done",
            TIMEOUT);
    String[] lines = out.strip().split("\\s+");
    try {
      return new Cursor(Long.parseLong(lines[0]), Long.parseLong(lines[1]));
    } catch (RuntimeException e) {
      throw new LumeException("unreadable serve log sizes: " + out.strip(), 0, e);
    }
  }

  static boolean limitSince(MacHost host, Cursor cursor)
      throws LumeException, InterruptedException {
    // A log shorter than the cursor was rotated: read it from the start.
    String script =
        "n=0\n"
            + "check() {\n"
            + "  [ -f \"$1\" ] || return 0\n"
            + "  size=$(wc -c < \"$1\" | tr -d ' ')\n"
            + "  from=$2; [ \"$size\" -lt \"$from\" ] && from=0\n"
            + "  if tail -c +$((from + 1)) \"$1\" | grep -F -q "
            + Shell.quote(VM_LIMIT)
            + "; then n=1; fi\n"
            + "}\n"
            + "check \"$HOME/lume-serve.out.log\" "
            + cursor.out()
            + "\n"
            + "check \"$HOME/lume-serve.err.log\" "
            + cursor.err()
            + "\n"
            + "echo $n";
    return host.runScript(script, TIMEOUT).strip().equals("1");
  }
}
