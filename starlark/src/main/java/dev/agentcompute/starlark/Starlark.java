package dev.agentcompute.starlark;

import dev.agentcompute.starlark.eval.Bool;
import dev.agentcompute.starlark.eval.Dict;
import dev.agentcompute.starlark.eval.EvalError;
import dev.agentcompute.starlark.eval.EvalException;
import dev.agentcompute.starlark.eval.Interpreter;
import dev.agentcompute.starlark.eval.NoneValue;
import dev.agentcompute.starlark.eval.Program;
import dev.agentcompute.starlark.eval.StarlarkBytes;
import dev.agentcompute.starlark.eval.StarlarkFloat;
import dev.agentcompute.starlark.eval.StarlarkInt;
import dev.agentcompute.starlark.eval.StarlarkList;
import dev.agentcompute.starlark.eval.StarlarkString;
import dev.agentcompute.starlark.eval.StarlarkThread;
import dev.agentcompute.starlark.eval.Tuple;
import dev.agentcompute.starlark.eval.Universe;
import dev.agentcompute.starlark.eval.Value;
import dev.agentcompute.starlark.resolve.Resolver;
import dev.agentcompute.starlark.syntax.FileNode;
import dev.agentcompute.starlark.syntax.Parser;
import dev.agentcompute.starlark.syntax.SyntaxError;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The front door for embedders: compile a file under a dialect, run it, call its functions and
 * convert values between Java and Starlark. Budgets and cancellation go through the {@link
 * StarlarkThread} passed to each call.
 */
public final class Starlark {
  private Starlark() {}

  /**
   * Parses and resolves a file. Names in {@code predeclared} (supplied later to {@link
   * Program#init}) and the Universe resolve; everything else is a static error.
   *
   * @throws SyntaxError with every error as {@code FILE:LINE:COL: msg}
   */
  public static Program compile(
      String filename, String source, Dialect dialect, Set<String> predeclared) throws SyntaxError {
    FileNode file = Parser.parseFile(filename, source);
    Set<String> universe = Universe.names();
    Resolver.resolve(file, dialect, predeclared::contains, universe::contains);
    return new Program(file, dialect);
  }

  /** Calls a Starlark or builtin function; errors carry the Starlark call stack. */
  public static Value call(
      StarlarkThread thread, Value fn, List<Value> args, Map<String, Value> kwargs)
      throws EvalError {
    return Interpreter.call(
        thread,
        fn,
        args.toArray(new Value[0]),
        kwargs == null ? List.of() : new ArrayList<>(kwargs.entrySet()));
  }

  /**
   * Converts a Java value to Starlark: null, Boolean, Integer, Long, BigInteger, Double, Float,
   * String, byte[], List (to list), Map with String keys (to dict, in iteration order), or a Value
   * (unchanged).
   */
  public static Value fromJava(Object o) {
    return switch (o) {
      case null -> NoneValue.NONE;
      case Value v -> v;
      case Boolean b -> Bool.of(b);
      case Integer i -> StarlarkInt.of(i);
      case Long l -> StarlarkInt.of(l);
      case Short s -> StarlarkInt.of(s);
      case Byte b -> StarlarkInt.of(b);
      case BigInteger b -> StarlarkInt.of(b);
      case Double d -> StarlarkFloat.of(d);
      case Float f -> StarlarkFloat.of(f);
      case String s -> StarlarkString.of(s);
      case byte[] b -> StarlarkBytes.of(b);
      case List<?> list -> {
        List<Value> vals = new ArrayList<>(list.size());
        for (Object x : list) {
          vals.add(fromJava(x));
        }
        yield StarlarkList.copyOf(vals);
      }
      case Map<?, ?> map -> {
        Dict d = new Dict();
        for (Map.Entry<?, ?> e : map.entrySet()) {
          try {
            d.put(fromJava(e.getKey()), fromJava(e.getValue()));
          } catch (EvalException ex) {
            throw new IllegalArgumentException(
                "cannot convert map key " + e.getKey() + ": " + ex.getMessage(), ex);
          }
        }
        yield d;
      }
      default ->
          throw new IllegalArgumentException(
              "cannot convert " + o.getClass().getName() + " to a Starlark value");
    };
  }

  /**
   * Converts a Starlark value to Java: None to null, bool to Boolean, int to Long (BigInteger if it
   * does not fit), float to Double, string to String, bytes to byte[], list and tuple to List, dict
   * to a LinkedHashMap. Other values (functions, modules, ...) are returned unchanged.
   */
  public static Object toJava(Value v) {
    return switch (v) {
      case NoneValue n -> null;
      case Bool b -> b.value();
      case StarlarkInt i -> i.isLong() ? (Object) i.longValue() : i.toBigInteger();
      case StarlarkFloat f -> f.value();
      case StarlarkString s -> s.value();
      case StarlarkBytes b -> b.toByteArray();
      case StarlarkList l -> {
        List<Object> out = new ArrayList<>();
        for (Value x : l.elements()) {
          out.add(toJava(x));
        }
        yield out;
      }
      case Tuple t -> {
        List<Object> out = new ArrayList<>();
        for (Value x : t.elements()) {
          out.add(toJava(x));
        }
        yield out;
      }
      case Dict d -> {
        Map<Object, Object> out = new LinkedHashMap<>();
        for (Map.Entry<Value, Value> e : d.entries()) {
          out.put(toJava(e.getKey()), toJava(e.getValue()));
        }
        yield out;
      }
      default -> v;
    };
  }
}
