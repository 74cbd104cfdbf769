package dev.agentcompute.rego.syntax;

import dev.agentcompute.rego.value.RegoValue;
import java.util.List;

/** A Rego term as written: the parser's output, before the compiler resolves names. */
public sealed interface Term {
  Position pos();

  /** null, a boolean, a number or a string. */
  record Scalar(RegoValue value, Position pos) implements Term {}

  /** A variable, or a name the compiler resolves (rule, import, {@code data}, {@code input}). */
  record Var(String name, Position pos) implements Term {
    public boolean isWildcard() {
      return name.equals("_");
    }
  }

  /**
   * {@code head.a[b]...}: {@code head} is a {@link Var} or a composite/call term; a dotted step
   * {@code .a} is the string scalar {@code "a"}.
   */
  record Ref(Term head, List<Term> path, Position pos) implements Term {}

  record ArrayTerm(List<Term> items, Position pos) implements Term {}

  record ObjectTerm(List<Term> keys, List<Term> values, Position pos) implements Term {}

  record SetTerm(List<Term> items, Position pos) implements Term {}

  record ArrayCompr(Term head, List<Expr> body, Position pos) implements Term {}

  record SetCompr(Term head, List<Expr> body, Position pos) implements Term {}

  record ObjectCompr(Term key, Term value, List<Expr> body, Position pos) implements Term {}

  /**
   * A call: {@code target} is the called name as a {@link Var} or {@link Ref} of names; {@code
   * operator} is set for infix operators, which always mean the builtin of that name ({@code plus},
   * {@code eq}, {@code assign}, ...).
   */
  record Call(Term target, String operator, List<Term> args, Position pos) implements Term {}
}
