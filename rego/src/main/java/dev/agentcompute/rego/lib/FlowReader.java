package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.RegoArray;
import dev.agentcompute.rego.value.RegoNull;
import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.RegoString;
import dev.agentcompute.rego.value.RegoValue;
import java.util.ArrayList;
import java.util.List;

/**
 * YAML flow collections ({@code [a, b]}, {@code {k: v}}), JSON included, for {@link YamlReader}.
 */
final class FlowReader {
  private static final int MAX_DEPTH = 100;
  private final String s;
  private int pos;

  FlowReader(String s) {
    this.s = s;
  }

  /** Whether every bracket opened outside quotes is closed (else the flow continues a line). */
  boolean balanced() {
    int depth = 0;
    char quote = 0;
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (quote != 0) {
        if (ch == '\\' && quote == '"') {
          i++;
        } else if (ch == quote) {
          quote = 0;
        }
      } else if (ch == '"' || ch == '\'') {
        quote = ch;
      } else if (ch == '[' || ch == '{') {
        depth++;
      } else if (ch == ']' || ch == '}') {
        depth--;
      }
    }
    return depth <= 0 && quote == 0;
  }

  RegoValue read() throws YamlReader.Error {
    RegoValue v = value(0);
    space();
    if (pos < s.length()) {
      throw new YamlReader.Error("yaml: did not find expected <document end>");
    }
    return v;
  }

  private void space() {
    while (pos < s.length() && s.charAt(pos) == ' ') {
      pos++;
    }
  }

  private RegoValue value(int depth) throws YamlReader.Error {
    if (depth > MAX_DEPTH) {
      throw new YamlReader.Error("yaml: exceeded max depth");
    }
    space();
    if (pos >= s.length()) {
      throw new YamlReader.Error("yaml: did not find expected node content");
    }
    char ch = s.charAt(pos);
    if (ch == '[') {
      pos++;
      List<RegoValue> items = new ArrayList<>();
      space();
      if (peek() == ']') {
        pos++;
        return RegoArray.EMPTY;
      }
      while (true) {
        items.add(value(depth + 1));
        space();
        char c = peek();
        pos++;
        if (c == ']') {
          return RegoArray.of(items);
        }
        if (c != ',') {
          throw new YamlReader.Error("yaml: did not find expected ',' or ']'");
        }
        space();
        if (peek() == ']') {
          pos++;
          return RegoArray.of(items);
        }
      }
    }
    if (ch == '{') {
      pos++;
      RegoObject.Builder b = new RegoObject.Builder();
      space();
      if (peek() == '}') {
        pos++;
        return b.build();
      }
      while (true) {
        space();
        RegoValue key = scalar(true);
        space();
        if (peek() != ':') {
          throw new YamlReader.Error("yaml: did not find expected ':'");
        }
        pos++;
        space();
        RegoValue v = peek() == ',' || peek() == '}' ? RegoNull.NULL : value(depth + 1);
        b.put(RegoString.of(key instanceof RegoString k ? k.value() : key.toString()), v);
        space();
        char c = peek();
        pos++;
        if (c == '}') {
          return b.build();
        }
        if (c != ',') {
          throw new YamlReader.Error("yaml: did not find expected ',' or '}'");
        }
        space();
        if (peek() == '}') {
          pos++;
          return b.build();
        }
      }
    }
    return scalar(false);
  }

  private char peek() {
    return pos < s.length() ? s.charAt(pos) : '\0';
  }

  private RegoValue scalar(boolean key) throws YamlReader.Error {
    char ch = peek();
    if (ch == '"' || ch == '\'') {
      int start = pos;
      pos++;
      while (pos < s.length()) {
        char c = s.charAt(pos);
        if (ch == '"' && c == '\\') {
          pos += 2;
          continue;
        }
        if (c == ch) {
          if (ch == '\'' && pos + 1 < s.length() && s.charAt(pos + 1) == '\'') {
            pos += 2;
            continue;
          }
          pos++;
          return YamlReader.quoted(s.substring(start, pos));
        }
        pos++;
      }
      throw new YamlReader.Error("yaml: found unexpected end of stream");
    }
    int start = pos;
    while (pos < s.length()) {
      char c = s.charAt(pos);
      if (c == ',' || c == ']' || c == '}' || c == '[' || c == '{') {
        break;
      }
      if (c == ':' && (pos + 1 >= s.length() || " ,]}".indexOf(s.charAt(pos + 1)) >= 0)) {
        break;
      }
      pos++;
    }
    String text = s.substring(start, pos).trim();
    return key ? RegoString.of(text) : YamlReader.plain(text);
  }
}
