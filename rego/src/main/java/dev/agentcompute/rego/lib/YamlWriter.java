package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.Json;
import dev.agentcompute.rego.value.RegoArray;
import dev.agentcompute.rego.value.RegoBoolean;
import dev.agentcompute.rego.value.RegoNull;
import dev.agentcompute.rego.value.RegoNumber;
import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.RegoSet;
import dev.agentcompute.rego.value.RegoString;
import dev.agentcompute.rego.value.RegoValue;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code yaml.marshal} in the block style of Go's yaml.v2 (which OPA uses): sorted keys, sequences
 * inside mappings not indented, multi-line strings as {@code |-} blocks, and strings that would
 * read back as another type quoted. Sets become sequences and non-string keys their JSON text, as
 * in the JSON conversion OPA does first.
 */
final class YamlWriter {
  private YamlWriter() {}

  static String write(RegoValue v) {
    StringBuilder b = new StringBuilder();
    node(b, v, 0, false);
    if (b.isEmpty() || b.charAt(b.length() - 1) != '\n') {
      b.append('\n');
    }
    return b.toString();
  }

  private static List<RegoValue> items(RegoValue v) {
    return v instanceof RegoArray a ? a.asList() : ((RegoSet) v).asList();
  }

  private static boolean isSeq(RegoValue v) {
    return v instanceof RegoArray || v instanceof RegoSet;
  }

  private static boolean emptyCollection(RegoValue v) {
    return (isSeq(v) && items(v).isEmpty()) || (v instanceof RegoObject o && o.size() == 0);
  }

  /** Writes {@code v} at {@code indent}; {@code inline}: the first line is already started. */
  private static void node(StringBuilder b, RegoValue v, int indent, boolean inline) {
    if (v instanceof RegoObject o && o.size() > 0) {
      List<String[]> entries = new ArrayList<>();
      for (int i = 0; i < o.size(); i++) {
        RegoValue k = o.key(i);
        entries.add(
            new String[] {
              k instanceof RegoString s ? s.value() : Json.write(k), Integer.toString(i)
            });
      }
      entries.sort((x, y) -> x[0].compareTo(y[0]));
      boolean first = true;
      for (String[] e : entries) {
        if (!(first && inline)) {
          b.append(" ".repeat(indent));
        }
        first = false;
        b.append(scalar(e[0])).append(':');
        RegoValue val = o.value(Integer.parseInt(e[1]));
        if (isSeq(val) && !emptyCollection(val)) {
          b.append('\n');
          node(b, val, indent, false);
        } else if (val instanceof RegoObject && !emptyCollection(val)) {
          b.append('\n');
          node(b, val, indent + 2, false);
        } else {
          b.append(' ');
          node(b, val, indent + 2, true);
        }
      }
      return;
    }
    if (isSeq(v) && !emptyCollection(v)) {
      boolean first = true;
      for (RegoValue item : items(v)) {
        if (!(first && inline)) {
          b.append(" ".repeat(indent));
        }
        first = false;
        b.append("- ");
        node(b, item, indent + 2, true);
      }
      return;
    }
    String text =
        switch (v) {
          case RegoNull n -> "null";
          case RegoBoolean x -> x.toString();
          case RegoNumber n -> n.text();
          case RegoString s -> block(s.value(), indent);
          default -> isSeq(v) ? "[]" : "{}";
        };
    b.append(text).append('\n');
  }

  private static String block(String s, int indent) {
    if (!s.contains("\n")) {
      return scalar(s);
    }
    StringBuilder b = new StringBuilder(s.endsWith("\n") ? "|" : "|-");
    String body = s.endsWith("\n") ? s.substring(0, s.length() - 1) : s;
    for (String line : body.split("\n", -1)) {
      b.append('\n');
      if (!line.isEmpty()) {
        b.append(" ".repeat(Math.max(2, indent))).append(line);
      }
    }
    return b.toString();
  }

  /** A string scalar, quoted when plain style would change or lose it. */
  static String scalar(String s) {
    if (s.isEmpty()) {
      return "\"\"";
    }
    boolean printable = true;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        printable = false;
      }
    }
    if (!printable) {
      return Json.write(RegoString.of(s));
    }
    try {
      if (!(YamlReader.plain(s) instanceof RegoString)) {
        return "\"" + s + "\"";
      }
    } catch (YamlReader.Error e) {
      return "'" + s.replace("'", "''") + "'";
    }
    char first = s.charAt(0);
    boolean plainOk =
        "-?:,[]{}#&*!|>'\"%@`".indexOf(first) < 0
            && first != ' '
            && s.charAt(s.length() - 1) != ' '
            && !s.contains(": ")
            && !s.contains(" #")
            && !s.endsWith(":");
    return plainOk ? s : "'" + s.replace("'", "''") + "'";
  }
}
