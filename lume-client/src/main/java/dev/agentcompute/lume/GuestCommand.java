package dev.agentcompute.lume;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The remote command line of a guest exec (docs/macos.md#what-the-server-does-on-the-mac), built
 * the way the original does so the guest's {@code sshd} hands it to the user's shell unchanged:
 *
 * <pre>
 * [cd '&lt;cwd&gt;' &amp;&amp; ]exec [sudo -n -- | sudo -n -u '#&lt;uid&gt;' -- ][env K='v' …]'argv0' 'argv1' …
 * </pre>
 *
 * <p>Users: {@code ""}, {@code lume} and {@code 501} (lume's UID) run as the login user; {@code
 * root} and {@code 0} through {@code sudo -n --}; another number through {@code sudo -n -u '#N'}.
 */
public final class GuestCommand {
  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern NUMERIC = Pattern.compile("[0-9]+");

  private GuestCommand() {}

  /**
   * @throws IllegalArgumentException with the agent-facing text when an argument is refused
   */
  public static String build(List<String> argv, Map<String, String> env, String cwd, String user) {
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("command is required");
    }
    String who = user == null ? "" : user;
    String sudo;
    if (who.isEmpty() || who.equals("lume") || who.equals("501")) {
      sudo = "";
    } else if (who.equals("root") || who.equals("0")) {
      sudo = "sudo -n -- ";
    } else if (NUMERIC.matcher(who).matches() && fitsUint32(who)) {
      sudo = "sudo -n -u " + Shell.quote("#" + Long.parseLong(who)) + " -- ";
    } else {
      throw new IllegalArgumentException("exec user must be lume, root, or a numeric UID");
    }
    StringBuilder line = new StringBuilder();
    if (cwd != null && !cwd.isEmpty()) {
      if (!cwd.startsWith("/") || cwd.indexOf('\0') >= 0) {
        throw new IllegalArgumentException("cwd must be an absolute path");
      }
      line.append("cd ").append(Shell.quote(cwd)).append(" && ");
    }
    line.append("exec ").append(sudo);
    if (!env.isEmpty()) {
      line.append("env ");
      for (Map.Entry<String, String> e : new TreeMap<>(env).entrySet()) {
        if (!ENV_NAME.matcher(e.getKey()).matches()) {
          throw new IllegalArgumentException(
              "invalid environment variable name \"" + e.getKey() + "\"");
        }
        noNul(e.getValue());
        line.append(e.getKey()).append('=').append(Shell.quote(e.getValue())).append(' ');
      }
    }
    for (int i = 0; i < argv.size(); i++) {
      noNul(argv.get(i));
      line.append(i == 0 ? "" : " ").append(Shell.quote(argv.get(i)));
    }
    return line.toString();
  }

  private static boolean fitsUint32(String digits) {
    return digits.length() <= 10 && Long.parseLong(digits) <= 0xffffffffL;
  }

  private static void noNul(String s) {
    if (s.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("exec arguments must not contain NUL bytes");
    }
  }
}
