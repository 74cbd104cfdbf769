package dev.agentcompute.rego;

import dev.agentcompute.rego.value.RegoValue;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A query's solutions: one row per solution, each binding the query's variables (sorted by name) to
 * values. No rows means the query is undefined.
 */
public record RegoResult(List<String> variables, List<List<RegoValue>> rows) {

  public boolean isUndefined() {
    return rows.isEmpty();
  }

  /** Row {@code i} as a map from variable name to value. */
  public Map<String, RegoValue> row(int i) {
    Map<String, RegoValue> m = new LinkedHashMap<>();
    List<RegoValue> r = rows.get(i);
    for (int j = 0; j < variables.size(); j++) {
      m.put(variables.get(j), r.get(j));
    }
    return m;
  }
}
