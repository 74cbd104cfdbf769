package dev.agentcompute.rego.eval;

import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.RegoSet;
import dev.agentcompute.rego.value.RegoValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the object that rules with variables in their reference head produce ({@code p[k] := v},
 * {@code a[x].b contains y}): each solution stores a value, or adds a set element, at a key path.
 */
final class ObjectTree {
  /** An inner node: key to RegoValue (a leaf), Map (inner node) or SetLeaf. */
  private final Map<RegoValue, Object> root = new HashMap<>();

  private static final class SetLeaf {
    final List<RegoValue> elems = new ArrayList<>();
  }

  /** Stores {@code value} at {@code keys}; false if a different value is already there. */
  boolean put(RegoValue[] keys, RegoValue value) {
    Map<RegoValue, Object> node = inner(keys);
    if (node == null) {
      return false;
    }
    RegoValue last = keys[keys.length - 1];
    Object existing = node.get(last);
    if (existing == null) {
      node.put(last, value);
      return true;
    }
    return existing instanceof RegoValue v && v.equals(value);
  }

  /** Adds {@code elem} to the set at {@code keys}; false if a non-set is there. */
  boolean add(RegoValue[] keys, RegoValue elem) {
    Map<RegoValue, Object> node = inner(keys);
    if (node == null) {
      return false;
    }
    Object existing = node.computeIfAbsent(keys[keys.length - 1], k -> new SetLeaf());
    if (!(existing instanceof SetLeaf s)) {
      return false;
    }
    s.elems.add(elem);
    return true;
  }

  @SuppressWarnings("unchecked")
  private Map<RegoValue, Object> inner(RegoValue[] keys) {
    Map<RegoValue, Object> node = root;
    for (int i = 0; i < keys.length - 1; i++) {
      Object next = node.computeIfAbsent(keys[i], k -> new HashMap<RegoValue, Object>());
      if (!(next instanceof Map)) {
        return null;
      }
      node = (Map<RegoValue, Object>) next;
    }
    return node;
  }

  RegoObject build() {
    return build(root);
  }

  @SuppressWarnings("unchecked")
  private static RegoObject build(Map<RegoValue, Object> node) {
    RegoObject.Builder b = new RegoObject.Builder(node.size());
    for (Map.Entry<RegoValue, Object> e : node.entrySet()) {
      Object v = e.getValue();
      RegoValue out =
          switch (v) {
            case RegoValue r -> r;
            case SetLeaf s -> RegoSet.of(s.elems);
            default -> build((Map<RegoValue, Object>) v);
          };
      b.put(e.getKey(), out);
    }
    return b.build();
  }
}
