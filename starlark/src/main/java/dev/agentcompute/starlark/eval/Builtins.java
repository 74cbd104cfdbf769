package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Token;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The builtin functions of the Universe (docs/reference/starlark.md#builtins), with starlark-go's
 * argument rules and errors.
 */
final class Builtins {
  private Builtins() {}

  static void register(Map<String, Value> m) {
    for (Fn f : Fn.values()) {
      m.put(f.starlarkName, new Builtin(f.starlarkName, f));
    }
  }

  /**
   * Every universal builtin, dispatched by constant: one class instead of a lambda per builtin,
   * which keeps interpreter start-up (a fresh process per CodeMode execution) cheap.
   */
  private enum Fn implements Builtin.Impl {
    ABS("abs"),
    ALL("all"),
    ANY("any"),
    BOOL("bool"),
    BYTES("bytes"),
    CHR("chr"),
    DICT("dict"),
    DIR("dir"),
    ENUMERATE("enumerate"),
    FAIL("fail"),
    FLOAT("float"),
    GETATTR("getattr"),
    HASATTR("hasattr"),
    HASH("hash"),
    INT("int"),
    LEN("len"),
    LIST("list"),
    MAX("max"),
    MIN("min"),
    ORD("ord"),
    PRINT("print"),
    RANGE("range"),
    REPR("repr"),
    REVERSED("reversed"),
    SET("set"),
    SORTED("sorted"),
    STR("str"),
    TUPLE("tuple"),
    TYPE("type"),
    ZIP("zip");

    final String starlarkName;

    Fn(String starlarkName) {
      this.starlarkName = starlarkName;
    }

    @Override
    public Value call(StarlarkThread t, Builtin fn, Value[] a, List<Map.Entry<String, Value>> kw)
        throws EvalException {
      return switch (this) {
        case ABS -> abs(t, fn, a, kw);
        case ALL -> anyAll(t, "all", a, kw, false);
        case ANY -> anyAll(t, "any", a, kw, true);
        case BOOL -> bool(t, fn, a, kw);
        case BYTES -> bytes(t, fn, a, kw);
        case CHR -> chr(t, fn, a, kw);
        case DICT -> dict(t, fn, a, kw);
        case DIR -> dir(t, fn, a, kw);
        case ENUMERATE -> enumerate(t, fn, a, kw);
        case FAIL -> fail(t, fn, a, kw);
        case FLOAT -> float_(t, fn, a, kw);
        case GETATTR -> getattr(t, fn, a, kw);
        case HASATTR -> hasattr(t, fn, a, kw);
        case HASH -> hash(t, fn, a, kw);
        case INT -> int_(t, fn, a, kw);
        case LEN -> len(t, fn, a, kw);
        case LIST -> list(t, fn, a, kw);
        case MAX -> minmax(t, "max", a, kw, Token.GT);
        case MIN -> minmax(t, "min", a, kw, Token.LT);
        case ORD -> ord(t, fn, a, kw);
        case PRINT -> print(t, fn, a, kw);
        case RANGE -> range(t, fn, a, kw);
        case REPR -> repr(t, fn, a, kw);
        case REVERSED -> reversed(t, fn, a, kw);
        case SET -> set(t, fn, a, kw);
        case SORTED -> sorted(t, fn, a, kw);
        case STR -> str(t, fn, a, kw);
        case TUPLE -> tuple(t, fn, a, kw);
        case TYPE -> type(t, fn, a, kw);
        case ZIP -> zip(t, fn, a, kw);
      };
    }
  }

  static void noKwargs(String fn, List<Map.Entry<String, Value>> kw) throws EvalException {
    if (!kw.isEmpty()) {
      throw new EvalException(fn + " does not accept keyword arguments");
    }
  }

  /** The single positional argument of {@code fn}, which takes exactly one and no keywords. */
  private static Value onlyArgument(String fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    noKwargs(fn, kw);
    if (args.length != 1) {
      throw new EvalException(fn + ": got " + args.length + " arguments, want exactly 1");
    }
    return args[0];
  }

  /** Calls {@code f(arg)} from a builtin. */
  static Value call1(StarlarkThread t, Callable f, Value arg) throws EvalException {
    t.step();
    return Eval.call(t, f, new Value[] {arg}, List.of());
  }

  private static Value abs(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value x = Args.positional("abs", args, kw, 1, 1)[0];
    if (x instanceof StarlarkFloat f) {
      return StarlarkFloat.of(Math.abs(f.value()));
    }
    if (x instanceof StarlarkInt i) {
      return i.signum() < 0 ? IntOps.unary(t, Token.MINUS, i) : i;
    }
    throw new EvalException("got " + x.type() + ", want int or float");
  }

  private static Value anyAll(
      StarlarkThread t, String name, Value[] args, List<Map.Entry<String, Value>> kw, boolean any)
      throws EvalException {
    Iterable it = Args.iterable(name, 1, Args.positional(name, args, kw, 1, 1)[0]);
    try (Iterator iter = it.iterate()) {
      Value v;
      int k = 0;
      while ((v = iter.next()) != null) {
        if ((++k & 63) == 0) {
          t.addSteps(4);
        }
        if (v.truth() == any) {
          return Bool.of(any);
        }
      }
    }
    return Bool.of(!any);
  }

  private static Value bool(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value x = Args.positional("bool", args, kw, 0, 1)[0];
    return Bool.of(x != null && x.truth());
  }

  private static Value bytes(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value x = onlyArgument("bytes", args, kw);
    if (x instanceof StarlarkBytes) {
      return x;
    }
    if (x instanceof StarlarkString s) {
      t.addByteSteps(s.len());
      return StarlarkBytes.wrap(Strings.utf8Transcode(s.bytes()));
    }
    if (x instanceof Iterable it) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (Iterator iter = it.iterate()) {
        Value v;
        for (int i = 0; (v = iter.next()) != null; i++) {
          if ((i & 255) == 255) {
            t.addSteps(4);
          }
          if (!(v instanceof StarlarkInt n)) {
            throw new EvalException("bytes: at index " + i + ", got " + v.type() + ", want int");
          }
          if (!n.isLong() || n.longValue() < 0 || n.longValue() > 255) {
            throw new EvalException(
                "bytes: at index "
                    + i
                    + ", "
                    + n
                    + " out of range (want value in unsigned 8-bit range)");
          }
          out.write((int) n.longValue());
        }
      }
      return StarlarkBytes.wrap(out.toByteArray());
    }
    throw new EvalException("bytes: got " + x.type() + ", want string, bytes, or iterable of ints");
  }

  private static Value chr(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    noKwargs("chr", kw);
    if (args.length != 1) {
      throw new EvalException("chr: got " + args.length + " arguments, want 1");
    }
    int i = Operators.asInt32(args[0], "chr: ");
    if (i < 0) {
      throw new EvalException("chr: Unicode code point " + i + " out of range (<0)");
    }
    if (i > 0x10FFFF) {
      throw new EvalException(
          "chr: Unicode code point U+"
              + Integer.toHexString(i).toUpperCase()
              + " out of range (>0x10FFFF)");
    }
    return StarlarkString.ofBytes(Utf8.encode(i));
  }

  private static Value dict(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    if (args.length > 1) {
      throw new EvalException("dict: got " + args.length + " arguments, want at most 1");
    }
    Dict d = new Dict();
    try {
      DictMethods.updateDict(t, d, args, kw);
    } catch (EvalException e) {
      throw EvalException.prefixed("dict", e);
    }
    return d;
  }

  private static Value dir(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value x = Args.positional("dir", args, kw, 1, 1)[0];
    ArrayList<Value> names = new ArrayList<>();
    if (x instanceof HasAttrs h) {
      List<String> ns = new ArrayList<>(h.attrNames());
      Collections.sort(ns);
      for (String n : ns) {
        names.add(StarlarkString.of(n));
      }
    }
    return new StarlarkList(names);
  }

  private static Value enumerate(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value[] a = Args.positional("enumerate", args, kw, 1, 2);
    Iterable it = Args.iterable("enumerate", 1, a[0]);
    int start = a[1] == null ? 0 : Args.int32("enumerate", 2, a[1]);
    ArrayList<Value> out = new ArrayList<>();
    try (Iterator iter = it.iterate()) {
      Value v;
      int i = start;
      while ((v = iter.next()) != null) {
        if ((i & 63) == 0) {
          t.addSteps(4);
          t.allocate(64 * 32);
        }
        out.add(Tuple.wrap(new Value[] {StarlarkInt.of(i++), v}));
      }
    }
    return new StarlarkList(out);
  }

  private static Value fail(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value[] a = Args.unpack("fail", new Value[0], kw, "sep?");
    String sep = a[0] == null ? " " : Args.string("fail", "sep", a[0]).value();
    StringBuilder sb = new StringBuilder("fail: ");
    for (int i = 0; i < args.length; i++) {
      if (i > 0) {
        sb.append(sep);
      }
      sb.append(Operators.render(t, args[i], true));
    }
    throw new EvalException(sb.toString());
  }

  private static Value float_(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    noKwargs("float", kw);
    if (args.length == 0) {
      return StarlarkFloat.of(0.0);
    }
    if (args.length != 1) {
      throw new EvalException("float got " + args.length + " arguments, wants 1");
    }
    Value x = args[0];
    if (x instanceof Bool b) {
      return StarlarkFloat.of(b.value() ? 1.0 : 0.0);
    }
    if (x instanceof StarlarkInt i) {
      return StarlarkFloat.of(i.toDouble());
    }
    if (x instanceof StarlarkFloat) {
      return x;
    }
    if (x instanceof StarlarkString s) {
      return StarlarkFloat.of(Strings.parseFloat(s.value()));
    }
    throw new EvalException("float got " + x.type() + ", want number or string");
  }

  private static Value getattr(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value[] a = Args.positional("getattr", args, kw, 2, 3);
    String name = Args.string("getattr", 2, a[1]).value();
    if (a[0] instanceof HasAttrs h) {
      Value v;
      try {
        v = h.attr(name);
      } catch (BudgetException e) {
        throw e;
      } catch (EvalException e) {
        if (a[2] != null) {
          return a[2];
        }
        throw new EvalException("getattr: " + e.getMessage());
      }
      if (v != null) {
        return v;
      }
    }
    if (a[2] != null) {
      return a[2];
    }
    throw new EvalException("getattr: " + a[0].type() + " has no ." + name + " field or method");
  }

  private static Value hasattr(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value[] a = Args.positional("hasattr", args, kw, 2, 2);
    String name = Args.string("hasattr", 2, a[1]).value();
    if (a[0] instanceof HasAttrs h) {
      try {
        return Bool.of(h.attr(name) != null);
      } catch (BudgetException e) {
        throw e;
      } catch (EvalException e) {
        return Bool.of(h.attrNames().contains(name));
      }
    }
    return Bool.FALSE;
  }

  private static Value hash(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value x = Args.positional("hash", args, kw, 1, 1)[0];
    if (x instanceof StarlarkString s) {
      t.addByteSteps(s.len());
      return StarlarkInt.of(s.javaHash());
    }
    if (x instanceof StarlarkBytes b) {
      t.addByteSteps(b.len());
      return StarlarkInt.of(Integer.toUnsignedLong(b.fnv()));
    }
    throw new EvalException("hash: got " + x.type() + ", want string or bytes");
  }

  private static Value int_(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value[] a = Args.unpack("int", args, kw, "x", "base?");
    Value x = a[0];
    Value base = a[1];
    if (x instanceof StarlarkString s) {
      int b = 10;
      if (base != null) {
        if (!(base instanceof StarlarkInt bi)
            || !bi.isLong()
            || bi.longValue() < Integer.MIN_VALUE
            || bi.longValue() > Integer.MAX_VALUE) {
          throw new EvalException("int: for base, got " + base.type() + ", want int");
        }
        b = (int) bi.longValue();
        if (b != 0 && (b < 2 || b > 36)) {
          throw new EvalException("int: base must be an integer >= 2 && <= 36");
        }
      }
      t.addByteSteps(s.len());
      StarlarkInt r = Strings.parseInt(t, s.value(), b);
      if (r == null) {
        throw new EvalException("int: invalid literal with base " + b + ": " + s.value());
      }
      return r;
    }
    if (base != null) {
      throw new EvalException("int: can't convert non-string with explicit base");
    }
    if (x instanceof Bool b) {
      return b.value() ? StarlarkInt.ONE : StarlarkInt.ZERO;
    }
    try {
      return numberToInt(x);
    } catch (EvalException e) {
      throw new EvalException("int: " + e.getMessage());
    }
  }

  /** Go's NumberToInt: an int unchanged, a float truncated toward zero. */
  static StarlarkInt numberToInt(Value x) throws EvalException {
    if (x instanceof StarlarkInt i) {
      return i;
    }
    if (x instanceof StarlarkFloat f) {
      double d = f.value();
      if (Double.isNaN(d)) {
        throw new EvalException("cannot convert float NaN to integer");
      }
      if (Double.isInfinite(d)) {
        throw new EvalException("cannot convert float infinity to integer");
      }
      return StarlarkInt.ofFiniteDouble(d);
    }
    throw new EvalException("cannot convert " + x.type() + " to int");
  }

  private static Value len(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value x = Args.positional("len", args, kw, 1, 1)[0];
    if (x instanceof RangeValue r) {
      return StarlarkInt.of(r.longLen());
    }
    int n = Operators.len(x);
    if (n < 0) {
      throw new EvalException("len: value of type " + x.type() + " has no len");
    }
    return StarlarkInt.of(n);
  }

  private static Value list(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value x = Args.positional("list", args, kw, 0, 1)[0];
    if (x == null) {
      return new StarlarkList();
    }
    return new StarlarkList(Operators.toList(t, Args.iterable("list", 1, x)));
  }

  private static Value minmax(
      StarlarkThread t, String name, Value[] args, List<Map.Entry<String, Value>> kw, Token op)
      throws EvalException {
    if (args.length == 0) {
      throw new EvalException(name + " requires at least one positional argument");
    }
    Value[] k = Args.unpack(name, new Value[0], kw, "key?");
    Callable key = k[0] == null ? null : Args.callable(name, "key", k[0]);
    Value iterable = args.length == 1 ? args[0] : Tuple.wrap(args.clone());
    if (!(iterable instanceof Iterable it)) {
      throw new EvalException(name + ": " + iterable.type() + " value is not iterable");
    }
    try (Iterator iter = it.iterate()) {
      Value extremum = iter.next();
      if (extremum == null) {
        throw new EvalException(name + ": argument is an empty sequence");
      }
      Value extremeKey = key == null ? extremum : call1(t, key, extremum);
      Value x;
      int n = 0;
      while ((x = iter.next()) != null) {
        if ((++n & 63) == 0) {
          t.addSteps(4);
        }
        Value kx = key == null ? x : call1(t, key, x);
        boolean better;
        try {
          better = Operators.compare(t, op, kx, extremeKey);
        } catch (EvalException e) {
          throw EvalException.prefixed(name, e);
        }
        if (better) {
          extremum = x;
          extremeKey = kx;
        }
      }
      return extremum;
    }
  }

  private static Value ord(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    noKwargs("ord", kw);
    if (args.length != 1) {
      throw new EvalException("ord: got " + args.length + " arguments, want 1");
    }
    Value x = args[0];
    if (x instanceof StarlarkString s) {
      byte[] b = s.bytes();
      if (b.length > 0) {
        long d = Utf8.decode(b, 0, b.length);
        if (Utf8.width(d) == b.length) {
          return StarlarkInt.of(Utf8.rune(d));
        }
      }
      throw new EvalException(
          "ord: string encodes " + Utf8.runeCount(b, 0, b.length) + " Unicode code points, want 1");
    }
    if (x instanceof StarlarkBytes b) {
      if (b.len() != 1) {
        throw new EvalException("ord: bytes has length " + b.len() + ", want 1");
      }
      return StarlarkInt.of(b.bytes()[0] & 0xFF);
    }
    throw new EvalException("ord: got " + x.type() + ", want string or bytes");
  }

  private static Value print(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value[] a = Args.unpack("print", new Value[0], kw, "sep?");
    String sep = a[0] == null ? " " : Args.string("print", "sep", a[0]).value();
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < args.length; i++) {
      if (i > 0) {
        sb.append(sep);
      }
      Value v = args[i];
      if (v instanceof StarlarkBytes b) {
        sb.append(new String(b.bytes(), java.nio.charset.StandardCharsets.UTF_8));
      } else {
        sb.append(Operators.render(t, v, true));
      }
    }
    t.addByteSteps(sb.length());
    t.printHandler().print(t, sb.toString());
    return NoneValue.NONE;
  }

  private static Value range(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value[] a = Args.positional("range", args, kw, 1, 3);
    long start = Args.int64("range", 1, a[0]);
    long stop = a[1] == null ? 0 : Args.int64("range", 2, a[1]);
    long step = a[2] == null ? 1 : Args.int64("range", 3, a[2]);
    if (args.length == 1) {
      stop = start;
      start = 0;
    }
    if (step == 0) {
      throw new EvalException("range: step argument must not be zero");
    }
    return RangeValue.of(start, stop, step);
  }

  private static Value repr(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value x = Args.positional("repr", args, kw, 1, 1)[0];
    return StarlarkString.of(Operators.render(t, x, false));
  }

  private static Value reversed(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value x = Args.positional("reversed", args, kw, 1, 1)[0];
    ArrayList<Value> l = Operators.toList(t, Args.iterable("reversed", 1, x));
    Collections.reverse(l);
    return new StarlarkList(l);
  }

  private static Value set(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value x = Args.positional("set", args, kw, 0, 1)[0];
    StarlarkSet s = new StarlarkSet();
    if (x != null) {
      Iterable it = Args.iterable("set", 1, x);
      try (Iterator iter = it.iterate()) {
        Value v;
        int n = 0;
        while ((v = iter.next()) != null) {
          if ((++n & 63) == 0) {
            t.addSteps(4);
          }
          try {
            s.add(v);
          } catch (EvalException e) {
            throw EvalException.prefixed("set", e);
          }
        }
      }
    }
    return s;
  }

  private static Value sorted(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value[] a = Args.unpack("sorted", args, kw, "iterable", "key?", "reverse?");
    Iterable it = Args.iterable("sorted", "iterable", a[0]);
    Callable key = a[1] == null ? null : Args.callable("sorted", "key", a[1]);
    boolean reverse = a[2] != null && Args.bool("sorted", "reverse", a[2]);
    Value[] values = Operators.toList(t, it).toArray(new Value[0]);
    int n = values.length;
    // n log n comparisons
    t.addSteps(1 + (long) n * (64 - Long.numberOfLeadingZeros(n + 1)) / 4);
    Value[] keys = values;
    if (key != null) {
      keys = new Value[n];
      for (int i = 0; i < n; i++) {
        keys[i] = call1(t, key, values[i]);
      }
    }
    GoSort.sort(t, keys, values, reverse);
    ArrayList<Value> out = new ArrayList<>(n);
    Collections.addAll(out, values);
    return new StarlarkList(out);
  }

  private static Value str(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value x = onlyArgument("str", args, kw);
    if (x instanceof StarlarkString) {
      return x;
    }
    if (x instanceof StarlarkBytes b) {
      return StarlarkString.ofBytes(Strings.utf8Transcode(b.bytes()));
    }
    return StarlarkString.of(Operators.render(t, x, true));
  }

  private static Value tuple(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    Value x = Args.positional("tuple", args, kw, 0, 1)[0];
    if (x == null) {
      return Tuple.EMPTY;
    }
    if (x instanceof Tuple) {
      return x;
    }
    return Tuple.copyOf(Operators.toList(t, Args.iterable("tuple", 1, x)));
  }

  private static Value type(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    return StarlarkString.of(onlyArgument("type", args, kw).type());
  }

  private static Value zip(
      StarlarkThread t, Builtin fn, Value[] args, List<Map.Entry<String, Value>> kw)
      throws EvalException {
    noKwargs("zip", kw);
    int cols = args.length;
    Iterator[] iters = new Iterator[cols];
    try {
      int rows = 0;
      for (int i = 0; i < cols; i++) {
        if (!(args[i] instanceof Iterable it)) {
          throw new EvalException(
              "zip: argument #" + (i + 1) + " is not iterable: " + args[i].type());
        }
        iters[i] = it.iterate();
        int n = Operators.len(args[i]);
        if (i == 0 || n < rows) {
          rows = n;
        }
      }
      ArrayList<Value> result = new ArrayList<>();
      if (cols == 0) {
        return new StarlarkList(result);
      }
      for (int r = 0; rows < 0 || r < rows; r++) {
        if ((r & 63) == 0) {
          t.addSteps(4 + cols);
          t.allocate(64L * (16 + 8 * cols));
        }
        Value[] row = new Value[cols];
        for (int j = 0; j < cols; j++) {
          Value v = iters[j].next();
          if (v == null) {
            return new StarlarkList(result);
          }
          row[j] = v;
        }
        result.add(Tuple.wrap(row));
      }
      return new StarlarkList(result);
    } finally {
      for (Iterator it : iters) {
        if (it != null) {
          it.close();
        }
      }
    }
  }
}
