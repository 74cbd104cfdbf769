package dev.agentcompute.starlark.eval;

import java.util.ArrayList;
import java.util.IdentityHashMap;

/**
 * The containers a recursive walk (printing, json.encode) is inside, to find a cycle back to one of
 * them. A scan of the path at each container made the walk quadratic in the nesting depth: a value
 * nested 600 deep cost 360,000 comparisons to encode, for a few steps. Short paths are scanned;
 * from {@value #SCAN_LIMIT} entries on, membership is an identity-map lookup.
 */
public final class VisitPath {
  private static final int SCAN_LIMIT = 16;

  private final ArrayList<Value> path = new ArrayList<>();
  private IdentityHashMap<Value, Boolean> index; // all of path, once it grew beyond SCAN_LIMIT

  /** Enters {@code v}; false (and nothing entered) if the walk is already inside it. */
  public boolean enter(Value v) {
    if (index != null) {
      if (index.putIfAbsent(v, Boolean.TRUE) != null) {
        return false;
      }
    } else {
      for (Value p : path) {
        if (p == v) {
          return false;
        }
      }
      if (path.size() == SCAN_LIMIT) {
        index = new IdentityHashMap<>();
        for (Value p : path) {
          index.put(p, Boolean.TRUE);
        }
        index.put(v, Boolean.TRUE);
      }
    }
    path.add(v);
    return true;
  }

  /** Leaves the container entered last. */
  public void leave() {
    Value v = path.remove(path.size() - 1);
    if (index != null) {
      index.remove(v);
    }
  }
}
