package dev.agentcompute.starlark.testmode;

import dev.agentcompute.starlark.eval.Builtin;
import dev.agentcompute.starlark.eval.EvalException;
import dev.agentcompute.starlark.eval.HasBinary;
import dev.agentcompute.starlark.eval.HasSetField;
import dev.agentcompute.starlark.eval.Immutable;
import dev.agentcompute.starlark.eval.Iterable;
import dev.agentcompute.starlark.eval.Iterator;
import dev.agentcompute.starlark.eval.StarlarkInt;
import dev.agentcompute.starlark.eval.StarlarkList;
import dev.agentcompute.starlark.eval.Value;
import dev.agentcompute.starlark.resolve.Spell;
import dev.agentcompute.starlark.syntax.Token;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/** starlark-go's test-only predeclared helpers (eval_test.go): hasfields and fibonacci. */
final class TestHelpers {
  private TestHelpers() {}

  static Builtin hasfieldsConstructor() {
    return new Builtin("hasfields", (thread, fn, args, named) -> new HasFields());
  }

  /** A mutable attribute bag; {@code list + hasfields} is 42 (exercises {@code list += x}). */
  static final class HasFields implements HasSetField, HasBinary {
    private final TreeMap<String, Value> attrs = new TreeMap<>();
    private boolean frozen;

    @Override
    public Value attr(String name) {
      return attrs.get(name);
    }

    @Override
    public List<String> attrNames() {
      return new ArrayList<>(attrs.keySet());
    }

    @Override
    public void setField(String name, Value v) throws EvalException {
      if (frozen) {
        throw new EvalException("cannot set field on a frozen hasfields");
      }
      if (name.startsWith("no")) {
        String msg = "no ." + name + " field";
        String near = Spell.nearest(name, attrs.keySet());
        throw new EvalException(near == null ? msg : msg + " (did you mean ." + near + "?)");
      }
      attrs.put(name, v);
    }

    @Override
    public Value binary(Token op, Value y, boolean thisOnRight) {
      if (op == Token.PLUS && y instanceof StarlarkList) {
        return StarlarkInt.of(42);
      }
      return null;
    }

    @Override
    public String type() {
      return "hasfields";
    }

    @Override
    public boolean truth() {
      return true;
    }

    @Override
    public int hash() {
      return 42;
    }

    @Override
    public void freeze() {
      if (!frozen) {
        frozen = true;
        attrs.values().forEach(Value::freeze);
      }
    }

    @Override
    public boolean isFrozen() {
      return frozen;
    }

    @Override
    public void repr(StringBuilder sb) {
      sb.append("hasfields");
    }
  }

  /** An infinite iterable of Fibonacci numbers. */
  static final class Fibonacci implements Iterable, Immutable {
    @Override
    public Iterator iterate() {
      return new Iterator() {
        BigInteger x = BigInteger.ZERO;
        BigInteger y = BigInteger.ONE;

        @Override
        public Value next() {
          Value v = StarlarkInt.of(x);
          BigInteger t = x.add(y);
          x = y;
          y = t;
          return v;
        }

        @Override
        public void close() {}
      };
    }

    @Override
    public String type() {
      return "fib";
    }

    @Override
    public boolean truth() {
      return true;
    }

    @Override
    public int hash() throws EvalException {
      throw new EvalException("fib is unhashable");
    }

    @Override
    public void repr(StringBuilder sb) {
      sb.append("fib");
    }
  }
}
