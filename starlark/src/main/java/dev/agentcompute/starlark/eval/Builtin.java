package dev.agentcompute.starlark.eval;

import java.util.List;
import java.util.Map;

/**
 * A function implemented in Java, optionally bound to a receiver ({@code "abc".upper} is the {@code
 * upper} builtin bound to {@code "abc"}).
 */
public final class Builtin implements Callable {
  /** The Java implementation; {@code fn.receiver()} is the bound receiver for methods. */
  @FunctionalInterface
  public interface Impl {
    Value call(
        StarlarkThread thread, Builtin fn, Value[] args, List<Map.Entry<String, Value>> named)
        throws EvalException;
  }

  private final String name;
  private final Impl impl;
  private final Value receiver;

  public Builtin(String name, Impl impl) {
    this(name, impl, null);
  }

  private Builtin(String name, Impl impl, Value receiver) {
    this.name = name;
    this.impl = impl;
    this.receiver = receiver;
  }

  /** A method {@code name} bound to {@code recv}. */
  static Builtin bound(String name, Impl impl, Value recv) {
    return new Builtin(name, impl, recv);
  }

  /** This builtin as a method bound to {@code recv}. */
  public Builtin bindTo(Value recv) {
    return new Builtin(name, impl, recv);
  }

  public Value receiver() {
    return receiver;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Value call(StarlarkThread thread, Value[] positional, List<Map.Entry<String, Value>> named)
      throws EvalException {
    return impl.call(thread, this, positional, named == null ? List.of() : named);
  }

  @Override
  public String type() {
    return "builtin_function_or_method";
  }

  @Override
  public boolean truth() {
    return true;
  }

  @Override
  public int hash() throws EvalException {
    int h = StarlarkString.of(name).hash();
    if (receiver != null) {
      h ^= 5521;
    }
    return h;
  }

  @Override
  public void freeze() {
    if (receiver != null) {
      receiver.freeze();
    }
  }

  @Override
  public boolean isFrozen() {
    return receiver == null || receiver.isFrozen();
  }

  @Override
  public void repr(StringBuilder sb) {
    if (receiver != null) {
      sb.append("<built-in method ")
          .append(name)
          .append(" of ")
          .append(receiver.type())
          .append(" value>");
    } else {
      sb.append("<built-in function ").append(name).append('>');
    }
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    repr(sb);
    return sb.toString();
  }
}
