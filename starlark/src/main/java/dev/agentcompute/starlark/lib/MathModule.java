package dev.agentcompute.starlark.lib;

import dev.agentcompute.starlark.eval.Args;
import dev.agentcompute.starlark.eval.Builtin;
import dev.agentcompute.starlark.eval.EvalException;
import dev.agentcompute.starlark.eval.Module;
import dev.agentcompute.starlark.eval.StarlarkFloat;
import dev.agentcompute.starlark.eval.StarlarkInt;
import dev.agentcompute.starlark.eval.StarlarkThread;
import dev.agentcompute.starlark.eval.Value;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * starlark-go's lib/math module (docs/reference/starlark.md#math); results follow Go's float64
 * functions.
 */
public final class MathModule {
  private MathModule() {}

  // As eval.Preload: a class first initialised deep in a recursion can fail to initialise and
  // stay unusable for the life of the JVM.
  static {
    for (Class<?> c : new Class<?>[] {GoMath.class}) {
      try {
        Class.forName(c.getName(), true, c.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** A new frozen {@code math} module. */
  public static Module module() {
    Map<String, Value> m = new LinkedHashMap<>();
    for (Fn f : Fn.values()) {
      m.put(f.starlarkName, new Builtin(f.starlarkName, f));
    }
    m.put("e", StarlarkFloat.of(Math.E));
    m.put("pi", StarlarkFloat.of(Math.PI));
    Module module = new Module("math", m);
    module.freeze();
    return module;
  }

  /**
   * The functions, dispatched by constant (one class rather than a lambda each: cheap start-up).
   */
  private enum Fn implements Builtin.Impl {
    CEIL("ceil", 0),
    FLOOR("floor", 0),
    COPYSIGN("copysign", 2),
    FABS("fabs", 1),
    MOD("mod", 2),
    POW("pow", 2),
    REMAINDER("remainder", 2),
    ROUND("round", 1),
    EXP("exp", 1),
    SQRT("sqrt", 1),
    ACOS("acos", 1),
    ASIN("asin", 1),
    ATAN("atan", 1),
    ATAN2("atan2", 2),
    COS("cos", 1),
    HYPOT("hypot", 2),
    SIN("sin", 1),
    TAN("tan", 1),
    DEGREES("degrees", 1),
    RADIANS("radians", 1),
    ACOSH("acosh", 1),
    ASINH("asinh", 1),
    ATANH("atanh", 1),
    COSH("cosh", 1),
    SINH("sinh", 1),
    TANH("tanh", 1),
    GAMMA("gamma", 1),
    LOG("log", 0);

    final String starlarkName;

    /** Number of float-or-int arguments of a plain numeric function (0: special argument rules). */
    final int arity;

    Fn(String starlarkName, int arity) {
      this.starlarkName = starlarkName;
      this.arity = arity;
    }

    @Override
    public Value call(StarlarkThread t, Builtin fn, Value[] a, List<Map.Entry<String, Value>> kw)
        throws EvalException {
      String name = starlarkName;
      switch (this) {
        case CEIL:
          return ceilFloor(name, a, kw, true);
        case FLOOR:
          return ceilFloor(name, a, kw, false);
        case LOG:
          {
            Value[] p = Args.positional(name, a, kw, 1, 2);
            double x = Args.number(name, 1, p[0]);
            double base = p[1] == null ? Math.E : Args.number(name, 2, p[1]);
            if (base == 1) {
              throw new EvalException("division by zero");
            }
            return StarlarkFloat.of(StrictMath.log(x) / StrictMath.log(base));
          }
        default:
          break;
      }
      Value[] p = Args.positional(name, a, kw, arity, arity);
      double x = Args.number(name, 1, p[0]);
      if (arity == 2) {
        double y = Args.number(name, 2, p[1]);
        return StarlarkFloat.of(
            switch (this) {
              case COPYSIGN -> Math.copySign(x, y);
              case MOD -> x % y; // Go's math.Mod is C fmod, as Java's %
              case POW -> GoMath.pow(x, y);
              case REMAINDER -> Math.IEEEremainder(x, y);
              case ATAN2 -> StrictMath.atan2(x, y);
              default -> StrictMath.hypot(x, y);
            });
      }
      return StarlarkFloat.of(
          switch (this) {
            case FABS -> Math.abs(x);
            case ROUND -> GoMath.round(x);
            case EXP -> StrictMath.exp(x);
            case SQRT -> Math.sqrt(x);
            case ACOS -> StrictMath.acos(x);
            case ASIN -> StrictMath.asin(x);
            case ATAN -> StrictMath.atan(x);
            case COS -> StrictMath.cos(x);
            case SIN -> StrictMath.sin(x);
            case TAN -> StrictMath.tan(x);
            case DEGREES -> x * (180 / Math.PI);
            case RADIANS -> x * (Math.PI / 180);
            case ACOSH -> GoMath.acosh(x);
            case ASINH -> GoMath.asinh(x);
            case ATANH -> GoMath.atanh(x);
            case COSH -> StrictMath.cosh(x);
            case SINH -> StrictMath.sinh(x);
            case TANH -> StrictMath.tanh(x);
            default -> GoMath.gamma(x);
          });
    }
  }

  private static Value ceilFloor(
      String name, Value[] a, List<Map.Entry<String, Value>> kw, boolean ceil)
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
