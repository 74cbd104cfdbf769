package dev.agentcompute.codemode;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Ids of {@code execute} calls: {@code ex-} then the time in milliseconds (12 hex digits), a
 * per-process sequence (4 hex digits) and this process's random tag (6 hex digits). Sorting ids as
 * text sorts them by start time, ids from one process never repeat, and two servers behind one load
 * balancer differ in their tag. The id joins an execute's audit record with its native calls and is
 * returned to the caller in the result's {@code _meta} under {@value #META_KEY}.
 */
public final class ExecuteIds {
  /** The {@code _meta} key of every execute result, errors included. */
  public static final String META_KEY = "dev.agentcompute/execute_id";

  /** Where the execute's id travels in its {@link Context}, down to every native call. */
  public static final Context.Key<String> KEY = new Context.Key<>("execute id");

  private static final String TAG =
      HexFormat.of().toHexDigits(new SecureRandom().nextInt()).substring(2);
  private static long lastMillis;
  private static int sequence;

  private ExecuteIds() {}

  /** A new id, later in text order than every id this process made before (same clock or later). */
  public static synchronized String next() {
    long now = System.currentTimeMillis();
    if (now > lastMillis) {
      lastMillis = now;
      sequence = 0;
    } else if (++sequence > 0xffff) {
      // More than 65536 ids in one millisecond: borrow the next millisecond.
      lastMillis++;
      sequence = 0;
    }
    return String.format("ex-%012x%04x%s", lastMillis, sequence, TAG);
  }

  /** The id of the execute {@code ctx} belongs to, or null outside an execute. */
  public static String of(Context ctx) {
    return ctx == null ? null : ctx.value(KEY).orElse(null);
  }
}
