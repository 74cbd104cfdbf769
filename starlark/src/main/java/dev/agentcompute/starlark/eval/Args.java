package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.resolve.Spell;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Argument unpacking for builtins, with starlark-go's {@code UnpackArgs} and {@code
 * UnpackPositionalArgs} error texts, so every builtin reports argument errors alike.
 */
public final class Args {
  private Args() {}

  /**
   * Go's UnpackPositionalArgs: no keywords, between {@code min} and {@code max} positional
   * arguments. Returns an array of length {@code max}, absent ones {@code null}.
   */
  public static Value[] positional(
      String fn, Value[] args, List<Map.Entry<String, Value>> named, int min, int max)
      throws EvalException {
    if (named != null && !named.isEmpty()) {
      throw new EvalException(fn + ": unexpected keyword arguments");
    }
    if (args.length < min) {
      throw new EvalException(
          fn + ": got " + args.length + " arguments, want " + (min < max ? "at least " : "") + min);
    }
    if (args.length > max) {
      throw new EvalException(
          fn + ": got " + args.length + " arguments, want " + (max > min ? "at most " : "") + max);
    }
    if (args.length == max) {
      return args;
    }
    Value[] out = new Value[max];
    System.arraycopy(args, 0, out, 0, args.length);
    return out;
  }

  /**
   * Go's UnpackArgs: parameters named {@code params} (a trailing {@code ?} marks an optional one;
   * optional parameters follow required ones), accepted positionally or by keyword. Returns one
   * slot per parameter, {@code null} when not given.
   */
  public static Value[] unpack(
      String fn, Value[] args, List<Map.Entry<String, Value>> named, String... params)
      throws EvalException {
    int n = params.length;
    if (args.length > n) {
      throw new EvalException(fn + ": got " + args.length + " arguments, want at most " + n);
    }
    Value[] out = new Value[n];
    System.arraycopy(args, 0, out, 0, args.length);
    if (named != null) {
      kwloop:
      for (Map.Entry<String, Value> kv : named) {
        String k = kv.getKey();
        for (int i = 0; i < n; i++) {
          if (paramName(params[i]).equals(k)) {
            if (out[i] != null) {
              throw new EvalException(
                  fn + ": got multiple values for keyword argument " + StarlarkString.of(k));
            }
            out[i] = kv.getValue();
            continue kwloop;
          }
        }
        List<String> names = new ArrayList<>();
        for (String p : params) {
          names.add(paramName(p));
        }
        String hint = Spell.nearest(k, names);
        throw new EvalException(
            fn
                + ": unexpected keyword argument "
                + StarlarkString.of(k)
                + (hint == null ? "" : " (did you mean " + hint + "?)"));
      }
    }
    for (int i = 0; i < n; i++) {
      if (params[i].endsWith("?")) {
        break;
      }
      if (out[i] == null) {
        throw new EvalException(fn + ": missing argument for " + params[i]);
      }
    }
    return out;
  }

  private static String paramName(String p) {
    return p.endsWith("?") ? p.substring(0, p.length() - 1) : p;
  }

  // ---- conversions with "fn: for parameter P: got T, want X" errors ----

  static EvalException wrongType(String fn, Object param, Value v, String want) {
    return new EvalException(
        fn + ": for parameter " + param + ": got " + v.type() + ", want " + want);
  }

  public static StarlarkString string(String fn, Object param, Value v) throws EvalException {
    if (v instanceof StarlarkString s) {
      return s;
    }
    throw wrongType(fn, param, v, "string");
  }

  public static int int32(String fn, Object param, Value v) throws EvalException {
    long l = integer(fn, param, v, Integer.MIN_VALUE, Integer.MAX_VALUE, 32);
    return (int) l;
  }

  public static long int64(String fn, Object param, Value v) throws EvalException {
    return integer(fn, param, v, Long.MIN_VALUE, Long.MAX_VALUE, 64);
  }

  /** An int argument within [min, max], the signed range of {@code bits} bits. */
  private static long integer(String fn, Object param, Value v, long min, long max, int bits)
      throws EvalException {
    if (v instanceof StarlarkInt i) {
      if (i.isLong() && i.longValue() >= min && i.longValue() <= max) {
        return i.longValue();
      }
      throw new EvalException(
          fn
              + ": for parameter "
              + param
              + ": "
              + i
              + " out of range (want value in signed "
              + bits
              + "-bit range)");
    }
    throw wrongType(fn, param, v, "int");
  }

  public static boolean bool(String fn, Object param, Value v) throws EvalException {
    if (v instanceof Bool b) {
      return b.value();
    }
    throw wrongType(fn, param, v, "bool");
  }

  public static Iterable iterable(String fn, Object param, Value v) throws EvalException {
    if (v instanceof Iterable it) {
      return it;
    }
    throw wrongType(fn, param, v, "iterable");
  }

  public static Callable callable(String fn, Object param, Value v) throws EvalException {
    if (v instanceof Callable c) {
      return c;
    }
    throw wrongType(fn, param, v, "callable");
  }

  /** Go's AsFloat: an int or float as a double, for math functions ("want float or int"). */
  public static double number(String fn, Object param, Value v) throws EvalException {
    if (v instanceof StarlarkFloat f) {
      return f.value();
    }
    if (v instanceof StarlarkInt i) {
      try {
        return i.toDouble();
      } catch (EvalException e) {
        throw new EvalException(fn + ": for parameter " + param + ": " + e.getMessage());
      }
    }
    throw wrongType(fn, param, v, "float or int");
  }
}
