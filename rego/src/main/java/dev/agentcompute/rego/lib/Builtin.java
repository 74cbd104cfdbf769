package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.RegoValue;

/**
 * One builtin function. A {@code relation} (such as {@code walk}) yields several results: its
 * function returns them as the elements of an array, and the evaluator tries each in turn.
 */
public record Builtin(String name, int arity, boolean relation, Function function) {

  /** The implementation; operands are ground values, checked by the implementation. */
  @FunctionalInterface
  public interface Function {
    RegoValue call(BuiltinContext ctx, RegoValue[] args) throws BuiltinError;
  }

  public static Builtin of(String name, int arity, Function function) {
    return new Builtin(name, arity, false, function);
  }
}
