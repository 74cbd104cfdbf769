package dev.agentcompute.codemode.execution;

import dev.agentcompute.codemode.AgentError;
import dev.agentcompute.codemode.catalog.Entry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The state-changing calls of one execution that succeeded, in order, for the failure that ends it:
 * nothing is rolled back, so the agent must learn what now exists. A capability whose hints say
 * read-only is left out. Each call reads {@code capability -> "name"} with the name the result (or
 * else the arguments) gave.
 */
final class AlreadyRan {

  /** At most this many UTF-8 bytes of calls are listed; the rest are counted. */
  static final int MAX_BYTES = 256;

  private final List<String> calls = new ArrayList<>();

  void record(Entry entry, Map<String, Object> arguments, Object result) {
    if (entry == null || entry.capability().hints().readOnly()) {
      return;
    }
    String name = nameIn(result);
    if (name == null) {
      name = nameIn(arguments);
    }
    calls.add(
        name == null
            ? entry.name()
            : entry.name() + " -> \"" + AgentError.sanitize(name, 64) + "\"");
  }

  /** The calls as {@code a -> "x", b -> "y"}, bounded; empty for none. */
  String text() {
    StringBuilder b = new StringBuilder();
    int shown = 0;
    for (String call : calls) {
      String next = (b.isEmpty() ? "" : ", ") + call;
      if (b.toString().getBytes(StandardCharsets.UTF_8).length
              + next.getBytes(StandardCharsets.UTF_8).length
          > MAX_BYTES) {
        break;
      }
      b.append(next);
      shown++;
    }
    if (shown < calls.size()) {
      b.append(b.isEmpty() ? "" : ", ").append("and ").append(calls.size() - shown).append(" more");
    }
    return b.toString();
  }

  private static String nameIn(Object value) {
    if (value instanceof Map<?, ?> m) {
      for (String key : List.of("name", "instance", "sandbox")) {
        if (m.get(key) instanceof String s && !s.isEmpty()) {
          return s;
        }
      }
    }
    return null;
  }
}
