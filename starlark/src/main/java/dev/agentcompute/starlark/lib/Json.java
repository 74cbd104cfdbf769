package dev.agentcompute.starlark.lib;

import dev.agentcompute.starlark.eval.Args;
import dev.agentcompute.starlark.eval.BudgetException;
import dev.agentcompute.starlark.eval.Builtin;
import dev.agentcompute.starlark.eval.EvalException;
import dev.agentcompute.starlark.eval.Module;
import dev.agentcompute.starlark.eval.StarlarkString;
import dev.agentcompute.starlark.eval.StarlarkThread;
import dev.agentcompute.starlark.eval.Value;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code json} module of starlark-go's lib/json (docs/reference/starlark.md#json). CodeMode's
 * module has exactly {@code decode}, {@code encode} and {@code indent}; the full profile adds
 * {@code encode_indent}.
 */
public final class Json {
  private Json() {}

  // As eval.Preload: a class first initialised deep in a recursion can fail to initialise and
  // stay unusable for the life of the JVM.
  static {
    for (Class<?> c : new Class<?>[] {JsonEncoder.class, JsonDecoder.class, JsonIndent.class}) {
      try {
        Class.forName(c.getName(), true, c.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** CodeMode's json module: decode, encode, indent. */
  public static Module codeModeModule() {
    return module(false);
  }

  /** starlark-go's full json module, with {@code encode_indent}. */
  public static Module fullModule() {
    return module(true);
  }

  private static Module module(boolean withEncodeIndent) {
    Map<String, Value> m = new LinkedHashMap<>();
    for (Fn f : Fn.values()) {
      if (f != Fn.ENCODE_INDENT || withEncodeIndent) {
        m.put(f.member, new Builtin("json." + f.member, f));
      }
    }
    Module module = new Module("json", m);
    module.freeze();
    return module;
  }

  /** The functions, dispatched by constant (no lambda per function: cheap start-up). */
  private enum Fn implements Builtin.Impl {
    DECODE("decode"),
    ENCODE("encode"),
    INDENT("indent"),
    ENCODE_INDENT("encode_indent");

    final String member;

    Fn(String member) {
      this.member = member;
    }

    @Override
    public Value call(
        StarlarkThread t, Builtin fn, Value[] a, java.util.List<Map.Entry<String, Value>> kw)
        throws EvalException {
      return switch (this) {
        case DECODE -> decode(t, fn, a, kw);
        case ENCODE -> encode(t, fn, a, kw);
        case INDENT -> indent(t, fn, a, kw);
        case ENCODE_INDENT -> encodeIndent(t, fn, a, kw);
      };
    }
  }

  private static Value encode(
      StarlarkThread t, Builtin fn, Value[] args, java.util.List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value x = Args.positional(fn.name(), args, kw, 1, 1)[0];
    return StarlarkString.of(JsonEncoder.encode(t, fn.name(), x));
  }

  private static Value encodeIndent(
      StarlarkThread t, Builtin fn, Value[] args, java.util.List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value[] opts = Args.unpack(fn.name(), new Value[0], kw, "prefix?", "indent?");
    String prefix = opts[0] == null ? "" : Args.string(fn.name(), "prefix", opts[0]).value();
    String indent = opts[1] == null ? "\t" : Args.string(fn.name(), "indent", opts[1]).value();
    Value x = Args.positional(fn.name(), args, java.util.List.of(), 1, 1)[0];
    String compact = JsonEncoder.encode(t, fn.name(), x);
    return StarlarkString.of(JsonIndent.indent(t, fn.name(), compact, prefix, indent));
  }

  private static Value indent(
      StarlarkThread t, Builtin fn, Value[] args, java.util.List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value[] opts = Args.unpack(fn.name(), new Value[0], kw, "prefix?", "indent?");
    String prefix = opts[0] == null ? "" : Args.string(fn.name(), "prefix", opts[0]).value();
    String indent = opts[1] == null ? "\t" : Args.string(fn.name(), "indent", opts[1]).value();
    StarlarkString s =
        Args.string(fn.name(), 1, Args.positional(fn.name(), args, java.util.List.of(), 1, 1)[0]);
    return StarlarkString.of(JsonIndent.indent(t, fn.name(), s.value(), prefix, indent));
  }

  private static Value decode(
      StarlarkThread t, Builtin fn, Value[] args, java.util.List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value[] a = Args.unpack(fn.name(), args, kw, "x", "default?");
    if (args.length < 1) {
      throw new EvalException(fn.name() + ": unexpected keyword argument x");
    }
    StarlarkString s = Args.string(fn.name(), "x", a[0]);
    try {
      return new JsonDecoder(t, s.toByteArray()).decode();
    } catch (BudgetException e) {
      throw e;
    } catch (JsonDecoder.Failure e) {
      if (a[1] != null) {
        return a[1];
      }
      throw new EvalException("json.decode: at offset " + e.offset + ", " + e.getMessage());
    }
  }
}
