package dev.agentcompute.rego.syntax;

import java.util.List;

/**
 * One body literal: a term (which may be a call such as {@code x = y} or {@code f(x)}), a {@code
 * some} declaration, {@code some ... in}, or {@code every}; optionally negated, with {@code with}
 * modifiers.
 */
public record Expr(Position pos, boolean negated, Form form, List<With> withs) {

  public sealed interface Form {}

  public record TermForm(Term term) implements Form {}

  /** {@code some x, y}: declares local variables. */
  public record SomeVars(List<Term.Var> vars) implements Form {}

  /** {@code some v in xs} or {@code some k, v in xs}; {@code key} is null in the first form. */
  public record SomeIn(Term key, Term value, Term domain) implements Form {}

  /** {@code every [k,] v in xs { body }}; {@code key} is null when absent. */
  public record Every(Term.Var key, Term.Var value, Term domain, List<Expr> body) implements Form {}

  /** {@code with target as value}. */
  public record With(Term target, Term value, Position pos) {}
}
