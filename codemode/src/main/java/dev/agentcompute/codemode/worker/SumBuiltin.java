package dev.agentcompute.codemode.worker;

import dev.agentcompute.starlark.eval.Args;
import dev.agentcompute.starlark.eval.Builtin;
import dev.agentcompute.starlark.eval.EvalException;
import dev.agentcompute.starlark.eval.Iterable;
import dev.agentcompute.starlark.eval.Iterator;
import dev.agentcompute.starlark.eval.StarlarkFloat;
import dev.agentcompute.starlark.eval.StarlarkInt;
import dev.agentcompute.starlark.eval.Value;

/**
 * CodeMode's {@code sum(iterable)} builtin (docs/reference/starlark.md#sum): exactly one positional
 * argument; ints give an int, and once a float appears the result is a float. Bools are rejected.
 * It is part of CodeMode's predeclared surface, not of the interpreter, so it lives here.
 */
final class SumBuiltin {
  private SumBuiltin() {}

  /** A new {@code sum} builtin. */
  static Builtin builtin() {
    return new Builtin(
        "sum",
        (t, fn, args, kw) -> {
          Value x = Args.positional("sum", args, kw, 1, 1)[0];
          Iterable it = Args.iterable("sum", 1, x);
          StarlarkInt isum = StarlarkInt.ZERO;
          double fsum = 0;
          boolean isFloat = false;
          try (Iterator iter = it.iterate()) {
            Value v;
            for (int i = 0; (v = iter.next()) != null; i++) {
              if ((i & 255) == 255) {
                t.addSteps(16);
              }
              if (v instanceof StarlarkInt n) {
                if (isFloat) {
                  fsum += toFloat(n);
                } else {
                  isum = isum.add(n);
                }
              } else if (v instanceof StarlarkFloat f) {
                if (!isFloat) {
                  isFloat = true;
                  fsum = toFloat(isum);
                }
                fsum += f.value();
              } else {
                throw new EvalException(
                    "sum: at index " + i + ", got " + v.type() + ", want int or float");
              }
            }
          }
          return isFloat ? StarlarkFloat.of(fsum) : isum;
        });
  }

  private static double toFloat(StarlarkInt n) throws EvalException {
    try {
      return n.toDouble();
    } catch (EvalException e) {
      throw new EvalException("sum: int too large to convert to float");
    }
  }
}
