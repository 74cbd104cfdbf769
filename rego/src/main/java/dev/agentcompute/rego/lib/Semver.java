package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.RegoBoolean;
import dev.agentcompute.rego.value.RegoNumber;
import dev.agentcompute.rego.value.RegoString;
import java.math.BigInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** semver.is_valid and semver.compare (SemVer 2.0.0: no leading zeros, no {@code v} prefix). */
final class Semver {
  private Semver() {}

  private static final String NUM = "(0|[1-9][0-9]*)";
  private static final String PRE_ID = "(?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)";
  private static final Pattern SEMVER =
      Pattern.compile(
          NUM
              + "\\."
              + NUM
              + "\\."
              + NUM
              + "(?:-("
              + PRE_ID
              + "(?:\\."
              + PRE_ID
              + ")*))?"
              + "(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?");

  static void register(Registry r) {
    r.add(
        "semver.is_valid",
        1,
        (c, a) ->
            RegoBoolean.of(a[0] instanceof RegoString s && SEMVER.matcher(s.value()).matches()));
    r.add(
        "semver.compare",
        2,
        (c, a) -> RegoNumber.of(compare(parse(Args.string(a, 0), 1), parse(Args.string(a, 1), 2))));
  }

  private static Matcher parse(String s, int operand) throws BuiltinError {
    Matcher m = SEMVER.matcher(s);
    if (!m.matches()) {
      throw BuiltinError.type("operand " + operand + " string " + s + " is not a valid SemVer");
    }
    return m;
  }

  private static int compare(Matcher a, Matcher b) {
    for (int i = 1; i <= 3; i++) {
      int c = new BigInteger(a.group(i)).compareTo(new BigInteger(b.group(i)));
      if (c != 0) {
        return Integer.signum(c);
      }
    }
    String pa = a.group(4);
    String pb = b.group(4);
    if (pa == null || pb == null) {
      return pa == null ? (pb == null ? 0 : 1) : -1;
    }
    String[] xa = pa.split("\\.");
    String[] xb = pb.split("\\.");
    for (int i = 0; i < Math.min(xa.length, xb.length); i++) {
      boolean na = xa[i].matches("[0-9]+");
      boolean nb = xb[i].matches("[0-9]+");
      int c;
      if (na && nb) {
        c = new BigInteger(xa[i]).compareTo(new BigInteger(xb[i]));
      } else if (na != nb) {
        c = na ? -1 : 1;
      } else {
        c = xa[i].compareTo(xb[i]);
      }
      if (c != 0) {
        return Integer.signum(c);
      }
    }
    return Integer.compare(xa.length, xb.length);
  }
}
