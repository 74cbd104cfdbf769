package dev.agentcompute.rego.compile;

import dev.agentcompute.rego.syntax.Position;
import java.util.List;

/**
 * One rule as written: its first clause and then its {@code else} branches, in order. {@code
 * contains} marks set-building rules (the clause value is one element).
 */
public record CompiledRule(List<Clause> clauses, boolean contains, Position pos) {

  public Clause main() {
    return clauses.get(0);
  }
}
