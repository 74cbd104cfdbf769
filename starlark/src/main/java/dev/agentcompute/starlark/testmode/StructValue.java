package dev.agentcompute.starlark.testmode;

import dev.agentcompute.starlark.eval.Builtin;
import dev.agentcompute.starlark.eval.Callable;
import dev.agentcompute.starlark.eval.Comparable;
import dev.agentcompute.starlark.eval.Comparison;
import dev.agentcompute.starlark.eval.EvalException;
import dev.agentcompute.starlark.eval.HasAttrs;
import dev.agentcompute.starlark.eval.HasBinary;
import dev.agentcompute.starlark.eval.Immutable;
import dev.agentcompute.starlark.eval.Operators;
import dev.agentcompute.starlark.eval.StarlarkString;
import dev.agentcompute.starlark.eval.StarlarkThread;
import dev.agentcompute.starlark.eval.Value;
import dev.agentcompute.starlark.syntax.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * starlark-go's starlarkstruct: {@code struct(**kw)} and branded structs made by calling a {@code
 * gensym(name=...)} symbol. Test-only (features struct, gensym).
 */
final class StructValue implements HasAttrs, HasBinary, Comparable {
  private final Value constructor; // the string "struct" or a Symbol
  private final TreeMap<String, Value> fields;
  private boolean frozen;

  private StructValue(Value constructor, TreeMap<String, Value> fields) {
    this.constructor = constructor;
    this.fields = fields;
  }

  static Builtin structBuiltin() {
    return new Builtin(
        "struct", (thread, fn, args, named) -> make(StarlarkString.of("struct"), args, named));
  }

  static Builtin gensymBuiltin() {
    return new Builtin(
        "gensym",
        (thread, fn, args, named) -> {
          if (args.length != 0
              || named.size() != 1
              || !named.get(0).getKey().equals("name")
              || !(named.get(0).getValue() instanceof StarlarkString s)) {
            throw new EvalException("gensym: want name=string");
          }
          return new Symbol(s.value());
        });
  }

  private static Value make(Value ctor, Value[] args, List<Map.Entry<String, Value>> named)
      throws EvalException {
    if (args.length > 0) {
      throw new EvalException("struct: unexpected positional arguments");
    }
    TreeMap<String, Value> f = new TreeMap<>();
    for (Map.Entry<String, Value> e : named) {
      f.put(e.getKey(), e.getValue());
    }
    return new StructValue(ctor, f);
  }

  private String ctorName() {
    return constructor instanceof StarlarkString s ? s.value() : constructor.toString();
  }

  @Override
  public Value attr(String name) throws EvalException {
    Value v = fields.get(name);
    if (v == null) {
      String prefix = constructor instanceof StarlarkString ? "struct" : ctorName() + " struct";
      throw new EvalException(prefix + " has no ." + name + " attribute");
    }
    return v;
  }

  @Override
  public List<String> attrNames() {
    return new ArrayList<>(fields.keySet());
  }

  @Override
  public Value binary(Token op, Value y, boolean thisOnRight) throws EvalException {
    if (op != Token.PLUS || !(y instanceof StructValue other)) {
      return null;
    }
    StructValue x = thisOnRight ? other : this;
    StructValue z = thisOnRight ? this : other;
    if (!Operators.equal(x.constructor, z.constructor)) {
      throw new EvalException(
          "cannot add structs of different constructors: " + x.ctorName() + " + " + z.ctorName());
    }
    TreeMap<String, Value> f = new TreeMap<>(x.fields);
    f.putAll(z.fields);
    return new StructValue(x.constructor, f);
  }

  @Override
  public boolean compareSameType(Token op, Value y, Comparison cmp) throws EvalException {
    StructValue o = (StructValue) y;
    boolean eq =
        Operators.equal(constructor, o.constructor) && fields.keySet().equals(o.fields.keySet());
    if (eq) {
      for (Map.Entry<String, Value> e : fields.entrySet()) {
        cmp.count(1);
        if (!cmp.equal(e.getValue(), o.fields.get(e.getKey()))) {
          eq = false;
          break;
        }
      }
    }
    return switch (op) {
      case EQL -> eq;
      case NEQ -> !eq;
      default -> throw new EvalException("struct " + op + " struct not implemented");
    };
  }

  @Override
  public String type() {
    return "struct";
  }

  @Override
  public boolean truth() {
    return true;
  }

  @Override
  public int hash() throws EvalException {
    int h = 0;
    for (Map.Entry<String, Value> e : fields.entrySet()) {
      h = 31 * h + e.getKey().hashCode() ^ e.getValue().hash();
    }
    return h;
  }

  @Override
  public void freeze() {
    if (!frozen) {
      frozen = true;
      fields.values().forEach(Value::freeze);
    }
  }

  @Override
  public boolean isFrozen() {
    return frozen;
  }

  @Override
  public void repr(StringBuilder sb) {
    sb.append(ctorName()).append('(');
    boolean first = true;
    for (Map.Entry<String, Value> e : fields.entrySet()) {
      if (!first) {
        sb.append(", ");
      }
      first = false;
      sb.append(e.getKey()).append(" = ").append(Operators.repr(e.getValue()));
    }
    sb.append(')');
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    repr(sb);
    return sb.toString();
  }

  /** A unique constructor symbol made by gensym. */
  static final class Symbol implements Callable, Immutable {
    private final String name;

    Symbol(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Value call(
        StarlarkThread thread, Value[] positional, List<Map.Entry<String, Value>> named)
        throws EvalException {
      return make(this, positional, named);
    }

    @Override
    public String type() {
      return "symbol";
    }

    @Override
    public boolean truth() {
      return true;
    }

    @Override
    public int hash() {
      return System.identityHashCode(this);
    }

    @Override
    public void repr(StringBuilder sb) {
      sb.append(name);
    }

    @Override
    public String toString() {
      return name;
    }
  }
}
