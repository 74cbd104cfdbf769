package dev.agentcompute.rego.syntax;

import java.util.List;

/** One parsed file: its package path (after {@code data}), imports and rules. */
public record Module(
    String file, Position pos, List<String> packagePath, List<Import> imports, List<Rule> rules) {

  /**
   * {@code import data.a.b [as c]} or {@code import input...}; {@code path} starts with the root
   * name. {@code rego.v1} and {@code future.keywords...} imports are accepted and dropped by the
   * parser.
   */
  public record Import(Position pos, List<Term> path, String alias) {}
}
