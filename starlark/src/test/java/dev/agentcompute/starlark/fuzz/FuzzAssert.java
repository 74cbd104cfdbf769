package dev.agentcompute.starlark.fuzz;

import dev.agentcompute.starlark.Starlark;
import dev.agentcompute.starlark.eval.Builtin;
import dev.agentcompute.starlark.eval.EvalError;
import dev.agentcompute.starlark.eval.Module;
import dev.agentcompute.starlark.eval.NoneValue;
import dev.agentcompute.starlark.eval.Operators;
import dev.agentcompute.starlark.eval.Value;
import java.util.List;
import java.util.Map;

/**
 * A lenient {@code assert} module for mutated conformance chunks: its checks compare and call as
 * the real one does (so that the interpreter does the same work) but never fail, and {@code fails}
 * runs its function and swallows an ordinary error, so that a mutated chunk runs to its end.
 */
final class FuzzAssert {
  private FuzzAssert() {}

  static Module module() {
    Builtin.Impl compare =
        (t, fn, args, kw) -> {
          if (args.length >= 2) {
            Operators.compare(t, dev.agentcompute.starlark.syntax.Token.EQL, args[0], args[1]);
          }
          return NoneValue.NONE;
        };
    Builtin.Impl fails =
        (t, fn, args, kw) -> {
          if (args.length >= 1) {
            try {
              Starlark.call(t, args[0], List.of(), Map.of());
            } catch (EvalError e) {
              if (e.budget() != null) {
                throw e;
              }
            }
          }
          return NoneValue.NONE;
        };
    Builtin.Impl ignore = (t, fn, args, kw) -> NoneValue.NONE;
    Module m =
        new Module(
            "assert",
            Map.of(
                "eq", new Builtin("eq", compare),
                "ne", new Builtin("ne", compare),
                "lt", new Builtin("lt", compare),
                "true", new Builtin("true", ignore),
                "contains", new Builtin("contains", ignore),
                "fail", new Builtin("fail", ignore),
                "fails", new Builtin("fails", fails)));
    m.freeze();
    return m;
  }

  static Value freeze() {
    return new Builtin(
        "freeze",
        (t, fn, args, kw) -> {
          if (args.length == 1) {
            args[0].freeze();
            return args[0];
          }
          return NoneValue.NONE;
        });
  }
}
