package dev.agentcompute.rego.eval;

import dev.agentcompute.rego.value.RegoValue;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@code with data...} replacements in force, as a trie over paths below {@code data}. A node
 * may replace the document at its path ({@link #value}); its children patch the document below.
 * Immutable: {@link #with} copies the spine it changes.
 */
final class Overrides {
  static final Overrides EMPTY = new Overrides(null, Map.of());

  final RegoValue value;
  final Map<RegoValue, Overrides> children;

  private Overrides(RegoValue value, Map<RegoValue, Overrides> children) {
    this.value = value;
    this.children = children;
  }

  Overrides child(RegoValue key) {
    return children.get(key);
  }

  boolean hasChildren() {
    return !children.isEmpty();
  }

  /** A copy where the document at {@code path} is {@code v} (replacing any deeper patches). */
  Overrides with(RegoValue[] path, int i, RegoValue v) {
    if (i == path.length) {
      return new Overrides(v, Map.of());
    }
    Map<RegoValue, Overrides> c = new HashMap<>(children);
    Overrides existing = children.getOrDefault(path[i], EMPTY);
    c.put(path[i], existing.with(path, i + 1, v));
    return new Overrides(value, Map.copyOf(c));
  }

  /** {@code base} with the patches below this node applied ({@code value} replaces it first). */
  RegoValue apply(RegoValue base) {
    RegoValue doc = value != null ? value : base;
    for (Map.Entry<RegoValue, Overrides> e : children.entrySet()) {
      RegoValue sub = Docs.member(doc, e.getKey());
      RegoValue patched = e.getValue().apply(sub);
      if (patched != null) {
        doc = Docs.upsert(doc, new RegoValue[] {e.getKey()}, 0, patched);
      }
    }
    return doc;
  }
}
