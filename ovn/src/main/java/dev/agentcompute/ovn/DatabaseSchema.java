package dev.agentcompute.ovn;

import java.util.List;
import java.util.Map;

/**
 * The parts of a {@code get_schema} answer callers check: name, version, tables and their columns.
 */
public record DatabaseSchema(
    String name, String version, Map<String, List<String>> tables, String json) {
  public DatabaseSchema {
    tables = Map.copyOf(tables);
  }
}
