package dev.agentcompute.rego.compile;

import dev.agentcompute.rego.syntax.Position;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code # METADATA} comment blocks. Their content is otherwise ignored (no schema validation, no
 * fetching), but a schema given by an external {@code $ref} would make OPA load it remotely, which
 * is disabled: such a policy is rejected, as docs/reference/rego.md#language says.
 */
final class Annotations {
  private Annotations() {}

  private static final Pattern REMOTE_REF =
      Pattern.compile("\\$ref\\s*:\\s*[\"']?((?:https?|file|ftp)://[^\"'\\s]+)");

  static void check(String file, String source, List<Problem> problems) {
    String[] lines = source.split("\n", -1);
    boolean inBlock = false;
    for (int i = 0; i < lines.length; i++) {
      String t = lines[i].strip();
      if (!t.startsWith("#")) {
        inBlock = false;
        continue;
      }
      String text = t.substring(1).strip();
      if (text.equals("METADATA")) {
        inBlock = true;
        continue;
      }
      if (inBlock) {
        Matcher m = REMOTE_REF.matcher(text);
        if (m.find()) {
          problems.add(
              new Problem(
                  Codes.COMPILE,
                  new Position(file, i + 1, lines[i].indexOf('$') + 1),
                  "remote schema reference "
                      + m.group(1)
                      + " cannot be loaded (remote references are disabled)"));
        }
      }
    }
  }
}
