package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.Policies;
import dev.agentcompute.rego.RegoEvalException;
import dev.agentcompute.rego.RegoException;

/** Evaluates one Rego expression (strict builtin errors) to JSON text, or its error message. */
final class Expressions {
  private Expressions() {}

  static String eval(String expr) throws RegoException {
    return Policies.value("package t\np := " + expr + "\n", "data.t.p");
  }

  static String error(String expr) throws RegoException {
    try {
      return "no error: " + eval(expr);
    } catch (RegoEvalException e) {
      return e.code() + ": " + e.detail();
    }
  }
}
