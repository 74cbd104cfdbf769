package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.RegoArray;
import dev.agentcompute.rego.value.RegoBoolean;
import dev.agentcompute.rego.value.RegoNull;
import dev.agentcompute.rego.value.RegoNumber;
import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.RegoString;
import dev.agentcompute.rego.value.RegoValue;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A minimal YAML reader for {@code yaml.unmarshal}/{@code yaml.is_valid}: block mappings and
 * sequences, flow collections, plain, quoted and block ({@code | >}) scalars, comments and {@code
 * ---} document markers (the first document is the value). Plain scalars resolve as YAML 1.1 does
 * in Go's yaml.v2 ({@code yes}/{@code no} are booleans). Not supported (rejected): anchors,
 * aliases, tags, complex keys, tabs in indentation. Mapping keys become strings, as when OPA
 * converts YAML to JSON.
 */
final class YamlReader {
  /** Malformed or unsupported YAML. */
  static final class Error extends Exception {
    Error(String message) {
      super(message, null, false, false);
    }
  }

  private static final int MAX_DEPTH = 100;
  private static final Pattern INT = Pattern.compile("[-+]?(0|[1-9][0-9_]*)");
  private static final Pattern HEX = Pattern.compile("[-+]?0x[0-9a-fA-F_]+");
  private static final Pattern FLOAT =
      Pattern.compile(
          "[-+]?([0-9][0-9_]*)?\\.[0-9_]*([eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+");

  private final List<String> lines = new ArrayList<>();
  private int line;
  private int depth;

  private YamlReader(String text) {
    for (String l : text.split("\r?\n", -1)) {
      lines.add(l);
    }
  }

  static RegoValue read(String text) throws Error {
    return new YamlReader(text).document();
  }

  private RegoValue document() throws Error {
    skipBlank();
    if (line < lines.size() && lines.get(line).startsWith("---")) {
      String rest = lines.get(line).substring(3).trim();
      if (!rest.isEmpty() && !rest.startsWith("#")) {
        lines.set(line, "    " + rest);
      } else {
        line++;
      }
    }
    skipBlank();
    RegoValue v = RegoNull.NULL;
    if (line < lines.size() && !isDocEnd(lines.get(line))) {
      v = node(indent(lines.get(line)));
    }
    skipBlank();
    if (line < lines.size() && !isDocEnd(lines.get(line))) {
      throw new Error("yaml: line " + (line + 1) + ": did not find expected key");
    }
    // Later documents must be well-formed too (yaml.is_valid checks the whole stream).
    while (line < lines.size()) {
      line++;
      skipBlank();
      if (line < lines.size() && !isDocEnd(lines.get(line))) {
        node(indent(lines.get(line)));
        skipBlank();
        if (line < lines.size() && !isDocEnd(lines.get(line))) {
          throw new Error("yaml: line " + (line + 1) + ": did not find expected key");
        }
      }
    }
    return v;
  }

  private static boolean isDocEnd(String l) {
    return l.startsWith("---") || l.startsWith("...");
  }

  private void skipBlank() {
    while (line < lines.size()) {
      String t = lines.get(line).trim();
      if (!t.isEmpty() && !t.startsWith("#")) {
        return;
      }
      line++;
    }
  }

  private int indent(String l) throws Error {
    int i = 0;
    while (i < l.length() && l.charAt(i) == ' ') {
      i++;
    }
    if (i < l.length() && l.charAt(i) == '\t') {
      throw new Error("yaml: line " + (line + 1) + ": found character that cannot start any token");
    }
    return i;
  }

  /** The block node starting at the current line, indented by {@code ind}. */
  private RegoValue node(int ind) throws Error {
    if (++depth > MAX_DEPTH) {
      throw new Error("yaml: exceeded max depth");
    }
    try {
      String l = lines.get(line);
      String body = l.substring(ind);
      if (body.equals("-") || body.startsWith("- ")) {
        return sequence(ind);
      }
      if (mappingKeyEnd(body) >= 0) {
        return mapping(ind);
      }
      line++;
      return scalarOrFlow(body, ind);
    } finally {
      depth--;
    }
  }

  private RegoValue sequence(int ind) throws Error {
    List<RegoValue> items = new ArrayList<>();
    while (true) {
      skipBlank();
      if (line >= lines.size()) {
        break;
      }
      String l = lines.get(line);
      int i = indent(l);
      if (i < ind || isDocEnd(l)) {
        break;
      }
      String body = l.substring(i);
      if (i != ind || !(body.equals("-") || body.startsWith("- "))) {
        if (i > ind) {
          throw new Error("yaml: line " + (line + 1) + ": did not find expected '-' indicator");
        }
        break;
      }
      String rest = body.substring(1).stripLeading();
      if (rest.isEmpty() || rest.startsWith("#")) {
        line++;
        skipBlank();
        items.add(
            line < lines.size() && indent(lines.get(line)) > ind
                ? node(indent(lines.get(line)))
                : RegoNull.NULL);
      } else {
        int itemIndent = ind + 1 + (body.length() - 1 - rest.length());
        lines.set(line, " ".repeat(itemIndent) + rest);
        items.add(node(itemIndent));
      }
    }
    return RegoArray.of(items);
  }

  private RegoValue mapping(int ind) throws Error {
    RegoObject.Builder b = new RegoObject.Builder();
    while (true) {
      skipBlank();
      if (line >= lines.size()) {
        break;
      }
      String l = lines.get(line);
      int i = indent(l);
      if (i < ind || isDocEnd(l)) {
        break;
      }
      if (i > ind) {
        throw new Error(
            "yaml: line " + (line + 1) + ": mapping values are not allowed in this context");
      }
      String body = l.substring(i);
      int colon = mappingKeyEnd(body);
      if (colon < 0) {
        throw new Error("yaml: line " + (line + 1) + ": could not find expected ':'");
      }
      String key = keyText(body.substring(0, colon).trim());
      String rest = body.substring(colon + 1).trim();
      RegoValue value;
      if (rest.isEmpty() || rest.startsWith("#")) {
        line++;
        skipBlank();
        if (line < lines.size() && !isDocEnd(lines.get(line))) {
          int ni = indent(lines.get(line));
          String nb = lines.get(line).substring(ni);
          boolean seqHere = ni == ind && (nb.equals("-") || nb.startsWith("- "));
          value = ni > ind || seqHere ? node(ni) : RegoNull.NULL;
        } else {
          value = RegoNull.NULL;
        }
      } else {
        line++;
        value = scalarOrFlow(rest, ind);
      }
      RegoString k = RegoString.of(key);
      if (b.get(k) != null) {
        throw new Error("yaml: mapping key \"" + key + "\" already defined");
      }
      b.put(k, value);
    }
    return b.build();
  }

  /** The index of the {@code :} ending a mapping key on this line, or -1. */
  private static int mappingKeyEnd(String s) {
    if (s.startsWith("\"") || s.startsWith("'")) {
      char q = s.charAt(0);
      int end = s.indexOf(q, 1);
      while (q == '\'' && end > 0 && end + 1 < s.length() && s.charAt(end + 1) == '\'') {
        end = s.indexOf(q, end + 2);
      }
      while (q == '"' && end > 0 && s.charAt(end - 1) == '\\') {
        end = s.indexOf(q, end + 1);
      }
      if (end < 0) {
        return -1;
      }
      int c = end + 1;
      return c < s.length() && s.charAt(c) == ':' && (c + 1 == s.length() || s.charAt(c + 1) == ' ')
          ? c
          : -1;
    }
    if (s.startsWith("[")
        || s.startsWith("{")
        || s.startsWith("#")
        || s.startsWith("|")
        || s.startsWith(">")) {
      return -1;
    }
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch == '#' && i > 0 && s.charAt(i - 1) == ' ') {
        return -1;
      }
      if (ch == ':' && (i + 1 == s.length() || s.charAt(i + 1) == ' ')) {
        return i;
      }
    }
    return -1;
  }

  private static String keyText(String k) throws Error {
    if (k.startsWith("\"") || k.startsWith("'")) {
      return ((RegoString) quoted(k)).value();
    }
    if (k.startsWith("&") || k.startsWith("*") || k.startsWith("!") || k.startsWith("?")) {
      throw new Error("yaml: unsupported key syntax: " + k);
    }
    return k;
  }

  /** A scalar or flow collection that starts on the current (already consumed) line. */
  private RegoValue scalarOrFlow(String text, int ind) throws Error {
    String t = stripComment(text).trim();
    if (t.startsWith("&") || t.startsWith("*") || t.startsWith("!")) {
      throw new Error("yaml: anchors, aliases and tags are not supported");
    }
    if (t.startsWith("|") || t.startsWith(">")) {
      return RegoString.of(blockScalar(t, ind));
    }
    if (t.startsWith("[") || t.startsWith("{")) {
      StringBuilder flow = new StringBuilder(t);
      FlowReader fr = new FlowReader(flow.toString());
      while (!fr.balanced() && line < lines.size()) {
        flow.append(' ').append(stripComment(lines.get(line++)).trim());
        fr = new FlowReader(flow.toString());
      }
      return fr.read();
    }
    StringBuilder s = new StringBuilder(t);
    if (!t.startsWith("\"") && !t.startsWith("'")) {
      // Plain scalars may continue on more-indented lines (folded with spaces).
      while (line < lines.size()) {
        String next = lines.get(line);
        if (next.trim().isEmpty() || indent(next) <= ind || mappingKeyEnd(next.trim()) >= 0) {
          break;
        }
        s.append(' ').append(stripComment(next).trim());
        line++;
      }
      return plain(s.toString());
    }
    return quoted(t);
  }

  private static String stripComment(String s) {
    boolean single = false;
    boolean dbl = false;
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch == '\'' && !dbl) {
        single = !single;
      } else if (ch == '"' && !single && (i == 0 || s.charAt(i - 1) != '\\')) {
        dbl = !dbl;
      } else if (ch == '#' && !single && !dbl && (i == 0 || s.charAt(i - 1) == ' ')) {
        return s.substring(0, i);
      }
    }
    return s;
  }

  private String blockScalar(String header, int ind) throws Error {
    boolean literal = header.startsWith("|");
    String chomp = header.length() > 1 ? header.substring(1).trim() : "";
    List<String> body = new ArrayList<>();
    int blockIndent = -1;
    while (line < lines.size()) {
      String l = lines.get(line);
      if (l.trim().isEmpty()) {
        body.add("");
        line++;
        continue;
      }
      int i = indent(l);
      if (i <= ind) {
        break;
      }
      if (blockIndent < 0) {
        blockIndent = i;
      }
      if (i < blockIndent) {
        break;
      }
      body.add(l.substring(blockIndent));
      line++;
    }
    int trailing = 0;
    while (!body.isEmpty() && body.get(body.size() - 1).isEmpty()) {
      body.remove(body.size() - 1);
      trailing++;
    }
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < body.size(); i++) {
      if (i > 0) {
        boolean fold = !literal && !body.get(i).isEmpty() && !body.get(i - 1).isEmpty();
        out.append(fold ? ' ' : '\n');
      }
      out.append(body.get(i));
    }
    if (chomp.startsWith("-")) {
      return out.toString();
    }
    if (chomp.startsWith("+")) {
      return out + "\n".repeat(trailing + (body.isEmpty() ? 0 : 1));
    }
    return body.isEmpty() ? "" : out + "\n";
  }

  static RegoValue quoted(String t) throws Error {
    char q = t.charAt(0);
    StringBuilder b = new StringBuilder();
    int i = 1;
    while (i < t.length()) {
      char ch = t.charAt(i);
      if (q == '\'' && ch == '\'') {
        if (i + 1 < t.length() && t.charAt(i + 1) == '\'') {
          b.append('\'');
          i += 2;
          continue;
        }
        return rest(t, i, b);
      }
      if (q == '"' && ch == '"') {
        return rest(t, i, b);
      }
      if (q == '"' && ch == '\\' && i + 1 < t.length()) {
        char e = t.charAt(++i);
        switch (e) {
          case 'n' -> b.append('\n');
          case 't' -> b.append('\t');
          case 'r' -> b.append('\r');
          case '0' -> b.append('\0');
          case '"', '\\', '/' -> b.append(e);
          case 'x', 'u', 'U' -> {
            int len = e == 'x' ? 2 : e == 'u' ? 4 : 8;
            if (i + len >= t.length()) {
              throw new Error("yaml: invalid escape in double-quoted scalar");
            }
            b.appendCodePoint(Integer.parseInt(t.substring(i + 1, i + 1 + len), 16));
            i += len;
          }
          default -> throw new Error("yaml: found unknown escape character");
        }
        i++;
        continue;
      }
      b.append(ch);
      i++;
    }
    throw new Error("yaml: found unexpected end of stream in quoted scalar");
  }

  private static RegoValue rest(String t, int close, StringBuilder b) throws Error {
    String after = t.substring(close + 1).trim();
    if (!after.isEmpty() && !after.startsWith("#")) {
      throw new Error("yaml: did not find expected key after quoted scalar");
    }
    return RegoString.of(b.toString());
  }

  /** YAML 1.1 resolution of a plain scalar, as Go's yaml.v2 does it. */
  static RegoValue plain(String s) throws Error {
    switch (s) {
      case "", "~", "null", "Null", "NULL" -> {
        return RegoNull.NULL;
      }
      case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON", "y", "Y" -> {
        return RegoBoolean.TRUE;
      }
      case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF", "n", "N" -> {
        return RegoBoolean.FALSE;
      }
      default -> {}
    }
    if (s.startsWith("- ")
        || s.equals("-")
        || s.startsWith("@")
        || s.startsWith("`")
        || s.startsWith("%")) {
      throw new Error("yaml: found character that cannot start any token");
    }
    String clean = s.replace("_", "");
    try {
      if (INT.matcher(s).matches()) {
        return RegoNumber.of(
            new java.math.BigDecimal(clean.startsWith("+") ? clean.substring(1) : clean));
      }
      if (HEX.matcher(s).matches()) {
        boolean neg = clean.startsWith("-");
        java.math.BigInteger v = new java.math.BigInteger(clean.replaceFirst("^[-+]?0x", ""), 16);
        return RegoNumber.of(neg ? v.negate() : v);
      }
      if (FLOAT.matcher(s).matches() && !clean.equals(".") && !clean.matches("[-+]?\\.")) {
        String f = clean.startsWith("+") ? clean.substring(1) : clean;
        if (f.startsWith(".") || f.startsWith("-.")) {
          f = f.replaceFirst("\\.", "0.");
        }
        if (f.endsWith(".")) {
          f = f + "0";
        }
        return RegoNumber.of(new java.math.BigDecimal(f.replace(".e", ".0e").replace(".E", ".0E")));
      }
    } catch (NumberFormatException e) {
      return RegoString.of(s);
    }
    if (s.matches("[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)")) {
      throw new Error("yaml: infinity and NaN have no JSON representation");
    }
    return RegoString.of(s);
  }
}
