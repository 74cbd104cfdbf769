package dev.agentcompute.starlark.lib;

import dev.agentcompute.starlark.eval.Args;
import dev.agentcompute.starlark.eval.Builtin;
import dev.agentcompute.starlark.eval.EvalException;
import dev.agentcompute.starlark.eval.Module;
import dev.agentcompute.starlark.eval.StarlarkFloat;
import dev.agentcompute.starlark.eval.StarlarkInt;
import dev.agentcompute.starlark.eval.Value;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;

/** starlark-go's lib/math module (spec §1.11); results follow Go's float64 functions. */
public final class MathModule {
  private MathModule() {}

  /** A new frozen {@code math} module. */
  public static Module module() {
    Map<String, Value> m = new LinkedHashMap<>();
    m.put("ceil", new Builtin("ceil", (t, fn, a, kw) -> ceilFloor("ceil", a, kw, true)));
    m.put("floor", new Builtin("floor", (t, fn, a, kw) -> ceilFloor("floor", a, kw, false)));
    binary(m, "copysign", Math::copySign);
    unary(m, "fabs", Math::abs);
    binary(m, "mod", (x, y) -> x % y);
    binary(m, "pow", GoMath::pow);
    binary(m, "remainder", Math::IEEEremainder);
    unary(m, "round", GoMath::round);
    unary(m, "exp", StrictMath::exp);
    unary(m, "sqrt", Math::sqrt);
    unary(m, "acos", StrictMath::acos);
    unary(m, "asin", StrictMath::asin);
    unary(m, "atan", StrictMath::atan);
    binary(m, "atan2", StrictMath::atan2);
    unary(m, "cos", StrictMath::cos);
    binary(m, "hypot", StrictMath::hypot);
    unary(m, "sin", StrictMath::sin);
    unary(m, "tan", StrictMath::tan);
    unary(m, "degrees", x -> x * (180 / Math.PI));
    unary(m, "radians", x -> x * (Math.PI / 180));
    unary(m, "acosh", GoMath::acosh);
    unary(m, "asinh", GoMath::asinh);
    unary(m, "atanh", GoMath::atanh);
    unary(m, "cosh", StrictMath::cosh);
    unary(m, "sinh", StrictMath::sinh);
    unary(m, "tanh", StrictMath::tanh);
    unary(m, "gamma", GoMath::gamma);
    m.put("log", new Builtin("log", (t, fn, a, kw) -> {
      Value[] p = Args.positional("log", a, kw, 1, 2);
      double x = Args.number("log", 1, p[0]);
      double base = p[1] == null ? Math.E : Args.number("log", 2, p[1]);
      if (base == 1) {
        throw new EvalException("division by zero");
      }
      return StarlarkFloat.of(StrictMath.log(x) / StrictMath.log(base));
    }));
    m.put("e", StarlarkFloat.of(Math.E));
    m.put("pi", StarlarkFloat.of(Math.PI));
    Module module = new Module("math", m);
    module.freeze();
    return module;
  }

  private static void unary(Map<String, Value> m, String name, DoubleUnaryOperator f) {
    m.put(name, new Builtin(name, (t, fn, a, kw) -> {
      Value x = Args.positional(name, a, kw, 1, 1)[0];
      return StarlarkFloat.of(f.applyAsDouble(Args.number(name, 1, x)));
    }));
  }

  private static void binary(Map<String, Value> m, String name, DoubleBinaryOperator f) {
    m.put(name, new Builtin(name, (t, fn, a, kw) -> {
      Value[] p = Args.positional(name, a, kw, 2, 2);
      return StarlarkFloat.of(f.applyAsDouble(Args.number(name, 1, p[0]), Args.number(name, 2, p[1])));
    }));
  }

  private static Value ceilFloor(String name, Value[] a, java.util.List<Map.Entry<String, Value>> kw, boolean ceil)
      throws EvalException {
    Value x = Args.positional(name, a, kw, 1, 1)[0];
    if (x instanceof StarlarkInt) {
      return x;
    }
    if (x instanceof StarlarkFloat f) {
      double d = ceil ? Math.ceil(f.value()) : Math.floor(f.value());
      if (Double.isNaN(d)) {
        throw new EvalException("cannot convert float NaN to integer");
      }
      if (Double.isInfinite(d)) {
        throw new EvalException("cannot convert float infinity to integer");
      }
      return StarlarkInt.ofFiniteDouble(d);
    }
    throw new EvalException("got " + x.type() + ", want float or int");
  }
}
