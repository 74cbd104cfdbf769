package dev.agentcompute.rego.compile;

import dev.agentcompute.rego.lib.Builtin;
import dev.agentcompute.rego.syntax.Position;
import dev.agentcompute.rego.value.RegoValue;

/**
 * The compiled form the evaluator runs: names resolved (variables to frame slots, rules to {@link
 * RuleNode}s, calls to builtins or functions), {@code some}/{@code :=} rewritten, and every body
 * ordered so each statement's inputs are bound before it runs.
 */
public final class Ir {
  private Ir() {}

  /** A term. */
  public sealed interface T
      permits Const, Local, Root, Ref, Arr, Obj, SetT, ArrCompr, SetCompr, ObjCompr, Call {}

  /** A ground value known at compile time. */
  public record Const(RegoValue value) implements T {}

  /** A variable: a slot in the frame of the rule body (or query) it belongs to. */
  public record Local(int slot, String name, Position pos) implements T {
    /** How the variable reads in messages (generated wildcards read as {@code _}). */
    public String display() {
      return name.startsWith("_$") ? "_" : name;
    }
  }

  /** The two root documents; as terms they only appear as the head of a {@link Ref}. */
  public enum Root implements T {
    DATA,
    INPUT
  }

  /**
   * {@code head[path0][path1]...}. {@code constPrefix} counts the leading {@link Const} steps (for
   * a data reference, the part that selects rules without evaluation).
   */
  public record Ref(T head, T[] path, int constPrefix, Position pos) implements T {}

  public record Arr(T[] items) implements T {}

  public record Obj(T[] keys, T[] values) implements T {}

  public record SetT(T[] items) implements T {}

  public record ArrCompr(T head, S[] body) implements T {}

  public record SetCompr(T head, S[] body) implements T {}

  public record ObjCompr(T key, T value, S[] body) implements T {}

  /** A call with exactly the function's arity of arguments. */
  public record Call(Fn fn, T[] args, Position pos) implements T {}

  /** What a call calls. {@link #name()} is also the key {@code with} mocks it under. */
  public sealed interface Fn permits BuiltinFn, UserFn {
    String name();

    int arity();
  }

  public record BuiltinFn(Builtin builtin) implements Fn {
    @Override
    public String name() {
      return builtin.name();
    }

    @Override
    public int arity() {
      return builtin.arity();
    }
  }

  public record UserFn(RuleNode node) implements Fn {
    @Override
    public String name() {
      return node.path();
    }

    @Override
    public int arity() {
      return node.arity();
    }
  }

  /** A body statement. */
  public sealed interface S permits Unify, CallS, TermS, Not, SomeIn, Every, With {
    Position pos();
  }

  /** {@code a = b} and {@code a := b}. */
  public record Unify(T a, T b, Position pos) implements S {}

  /** A call as a statement: true unless it yields false; with {@code out}, its result unifies. */
  public record CallS(Call call, T out, Position pos) implements S {}

  /** A term as a statement: succeeds for each defined, non-false value. */
  public record TermS(T term, Position pos) implements S {}

  public record Not(S inner, Position pos) implements S {}

  /** {@code some [key,] value in domain}; {@code key} may be null. */
  public record SomeIn(T key, T value, T domain, Position pos) implements S {}

  /** {@code every [key,] value in domain { body }}; {@code key} may be null. */
  public record Every(Local key, Local value, T domain, S[] body, Position pos) implements S {}

  /** {@code inner with ...}. */
  public record With(S inner, WithMod[] mods, Position pos) implements S {}

  /**
   * One {@code with}: replaces {@code input} or {@code data} at {@code path}, or (kind {@link
   * WithKind#FUNCTION}) the function or builtin named {@code function} by {@code value} (a function
   * if {@code replacement} is set, else a constant result).
   */
  public record WithMod(
      WithKind kind, RegoValue[] path, String function, Fn replacement, T value, Position pos) {}

  public enum WithKind {
    INPUT,
    DATA,
    FUNCTION
  }
}
