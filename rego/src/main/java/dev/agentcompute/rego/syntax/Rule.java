package dev.agentcompute.rego.syntax;

import java.util.List;

/**
 * A rule as written. {@code ref} is the head reference (its head is a {@link Term.Var}); {@code
 * args} is non-null for functions; {@code value} is the head value (null means {@code true}), or
 * for {@code contains} rules the element. An empty body means {@code true}.
 */
public record Rule(
    Position pos,
    boolean isDefault,
    Term.Ref ref,
    List<Term> args,
    Kind kind,
    Term value,
    List<Expr> body,
    List<Else> elses) {

  /** How the head defines its document. */
  public enum Kind {
    /** {@code ref := value} / {@code ref = value} / {@code ref if ...} / functions. */
    VALUE,
    /** {@code ref contains value}: one element of a set. */
    CONTAINS
  }

  /** {@code else [:= value] [if body]}; {@code value} null means {@code true}. */
  public record Else(Position pos, Term value, List<Expr> body) {}

  public boolean isFunction() {
    return args != null;
  }
}
