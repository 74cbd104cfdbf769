package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.resolve.Spell;
import dev.agentcompute.starlark.syntax.Token;
import java.util.ArrayList;
import java.util.Arrays;

/**
 * The operators of Starlark (docs/reference/starlark.md#dialects) with starlark-go's semantics and
 * error texts: arithmetic, comparison, membership, indexing, slicing, attribute access and
 * iteration.
 */
public final class Operators {
  /** Go's maxAlloc: the largest repetition result, in elements. */
  static final long MAX_ALLOC = 1L << 30;

  /**
   * The largest string or bytes value (in bytes) one operation may build. starlark-go relies on
   * Go's memory; a Java heap is smaller, so bigger results fail cleanly instead of exhausting it.
   */
  static final long MAX_BYTES = 1L << 27;

  /** The largest list or tuple (in elements) one operation may build, for the same reason. */
  static final long MAX_ELEMS = 1L << 25;

  private Operators() {}

  // ---------------------------------------------------------------- unary

  public static Value unary(Token op, Value x) throws EvalException {
    return unary(null, op, x);
  }

  /** As {@link #unary(Token, Value)}, charging the work on big ints to {@code thread} if given. */
  public static Value unary(StarlarkThread thread, Token op, Value x) throws EvalException {
    if (op == Token.NOT) {
      return Bool.of(!x.truth());
    }
    if (x instanceof StarlarkInt i) {
      Value r = IntOps.unary(thread, op, i);
      if (r != null) {
        return r;
      }
    } else if (x instanceof StarlarkFloat f) {
      switch (op) {
        case MINUS:
          return StarlarkFloat.of(-f.value());
        case PLUS:
          return f;
        default:
          break;
      }
    }
    throw new EvalException("unknown unary op: " + op + " " + x.type());
  }

  // ---------------------------------------------------------------- binary

  /**
   * {@code x op y} for arithmetic, bitwise, concatenation, {@code %} and {@code in}/{@code not in}.
   */
  public static Value binary(Token op, Value x, Value y) throws EvalException {
    return binary(null, op, x, y);
  }

  /**
   * As {@link #binary(Token, Value, Value)}, charging proportional work to {@code thread} if given.
   */
  public static Value binary(StarlarkThread thread, Token op, Value x, Value y)
      throws EvalException {
    // Small, inlinable fast path for the most common case: int op int within 64 bits, which costs
    // no more than the evaluator's step (bigger ints are charged by IntOps).
    if (x instanceof StarlarkInt a && y instanceof StarlarkInt b && a.isLong() && b.isLong()) {
      switch (op) {
        case PLUS:
          return a.add(b);
        case MINUS:
          return a.sub(b);
        case STAR:
          return a.mul(b);
        case SLASHSLASH:
          if (b.signum() != 0) {
            return a.floorDiv(b);
          }
          break;
        case PERCENT:
          if (b.signum() != 0) {
            return a.mod(b);
          }
          break;
        default:
          break;
      }
    }
    return binarySlow(thread, op, x, y);
  }

  private static Value binarySlow(StarlarkThread thread, Token op, Value x, Value y)
      throws EvalException {
    if (x instanceof StarlarkInt a && y instanceof StarlarkInt b) {
      Value r = IntOps.binary(thread, op, a, b);
      if (r != null) {
        return r;
      }
    }
    switch (op) {
      case PLUS:
        if (x instanceof StarlarkString a && y instanceof StarlarkString b) {
          return concat(thread, a, b);
        }
        if (x instanceof StarlarkFloat || y instanceof StarlarkFloat) {
          Double r = floatOp(op, x, y);
          if (r != null) {
            return StarlarkFloat.of(r);
          }
        }
        if (x instanceof StarlarkList a && y instanceof StarlarkList b) {
          checkElems((long) a.len() + b.len());
          charge(thread, (long) a.len() + b.len(), 8);
          ArrayList<Value> out = new ArrayList<>(a.len() + b.len());
          out.addAll(a.elems);
          out.addAll(b.elems);
          return new StarlarkList(out);
        }
        if (x instanceof Tuple a && y instanceof Tuple b) {
          checkElems((long) a.len() + b.len());
          charge(thread, (long) a.len() + b.len(), 8);
          Value[] out = Arrays.copyOf(a.array(), a.len() + b.len());
          System.arraycopy(b.array(), 0, out, a.len(), b.len());
          return Tuple.wrap(out);
        }
        if (x instanceof StarlarkBytes a && y instanceof StarlarkBytes b) {
          if ((long) a.len() + b.len() > MAX_BYTES) {
            throw new EvalException("bytes too large (" + ((long) a.len() + b.len()) + " bytes)");
          }
          charge(thread, (long) a.len() + b.len(), 1);
          byte[] out = Arrays.copyOf(a.bytes(), a.len() + b.len());
          System.arraycopy(b.bytes(), 0, out, a.len(), b.len());
          return StarlarkBytes.wrap(out);
        }
        break;
      case MINUS:
        if (x instanceof StarlarkFloat || y instanceof StarlarkFloat) {
          Double r = floatOp(op, x, y);
          if (r != null) {
            return StarlarkFloat.of(r);
          }
        }
        if (x instanceof StarlarkSet a && y instanceof StarlarkSet b) {
          return SetMethods.difference(thread, a, b);
        }
        break;
      case STAR:
        if (x instanceof StarlarkFloat || y instanceof StarlarkFloat) {
          Double r = floatOp(op, x, y);
          if (r != null) {
            return StarlarkFloat.of(r);
          }
        }
        if (y instanceof StarlarkInt n) {
          Value r = repeat(thread, x, n);
          if (r != null) {
            return r;
          }
        } else if (x instanceof StarlarkInt n) {
          Value r = repeat(thread, y, n);
          if (r != null) {
            return r;
          }
        }
        break;
      case SLASH:
        if (isNumber(x) && isNumber(y)) {
          double a = toDouble(x);
          double b = toDouble(y);
          if (b == 0.0) {
            throw new EvalException("floating-point division by zero");
          }
          return StarlarkFloat.of(a / b);
        }
        break;
      case SLASHSLASH:
        if (isNumber(x) && isNumber(y)) {
          double a = toDouble(x);
          double b = toDouble(y);
          if (b == 0.0) {
            throw new EvalException("floored division by zero");
          }
          return StarlarkFloat.of(Math.floor(a / b));
        }
        break;
      case PERCENT:
        if (isNumber(x) && isNumber(y)) {
          double a = toDouble(x);
          double b = toDouble(y);
          if (b == 0.0) {
            throw new EvalException("floating-point modulo by zero");
          }
          return StarlarkFloat.of(floatMod(a, b));
        }
        if (x instanceof StarlarkString fmt) {
          return Formatter.percent(thread, fmt, y);
        }
        break;
      case IN:
        return Bool.of(in(x, y));
      case NOT_IN:
        return Bool.of(!in(x, y));
      case PIPE:
        if (x instanceof Dict a && y instanceof Dict b) {
          charge(thread, (long) a.len() + b.len(), 8);
          Dict out = new Dict();
          DictMethods.update(out, a);
          DictMethods.update(out, b);
          return out;
        }
        if (x instanceof StarlarkSet a && y instanceof StarlarkSet b) {
          return SetMethods.union(thread, a, b);
        }
        break;
      case AMP:
        if (x instanceof StarlarkSet a && y instanceof StarlarkSet b) {
          return SetMethods.intersection(thread, a, b);
        }
        break;
      case CIRCUMFLEX:
        if (x instanceof StarlarkSet a && y instanceof StarlarkSet b) {
          return SetMethods.symmetricDifference(thread, a, b);
        }
        break;
      case LTLT:
      case GTGT:
        if (x instanceof StarlarkInt a) {
          asInt32(y, ""); // as Go: "got string, want int" (an int count was handled above)
        }
        break;
      default:
        break;
    }
    if (x instanceof HasBinary hb) {
      Value r = hb.binary(op, y, false);
      if (r != null) {
        return r;
      }
    }
    if (y instanceof HasBinary hb) {
      Value r = hb.binary(op, x, true);
      if (r != null) {
        return r;
      }
    }
    throw new EvalException("unknown binary op: " + x.type() + " " + op + " " + y.type());
  }

  /** Fails when a list or tuple of {@code n} elements would exceed {@link #MAX_ELEMS}. */
  static void checkElems(long n) throws EvalException {
    if (n > MAX_ELEMS) {
      throw new EvalException("too many elements (" + n + ", limit " + MAX_ELEMS + ")");
    }
  }

  private static void charge(StarlarkThread thread, long elems, int bytesPerElem)
      throws EvalException {
    if (thread != null) {
      thread.addSteps(1 + elems / 16);
      thread.allocate(elems * bytesPerElem);
    }
  }

  private static StarlarkString concat(StarlarkThread thread, StarlarkString a, StarlarkString b)
      throws EvalException {
    if (a.len() == 0) {
      return b;
    }
    if (b.len() == 0) {
      return a;
    }
    long n = (long) a.len() + b.len();
    if (n > MAX_BYTES) {
      throw new EvalException("string too large (" + n + " bytes)");
    }
    if (thread != null) {
      if (n > 4096) {
        thread.addByteSteps(n);
      }
      thread.allocate(n);
    }
    byte[] out = Arrays.copyOf(a.bytes(), a.len() + b.len());
    System.arraycopy(b.bytes(), 0, out, a.len(), b.len());
    return StarlarkString.ofBytes(out);
  }

  private static boolean isNumber(Value v) {
    return v instanceof StarlarkInt || v instanceof StarlarkFloat;
  }

  private static double toDouble(Value v) throws EvalException {
    return v instanceof StarlarkFloat f ? f.value() : ((StarlarkInt) v).toDouble();
  }

  /** Mixed int/float arithmetic for + - *; null if an operand is not a number. */
  private static Double floatOp(Token op, Value x, Value y) throws EvalException {
    if (!isNumber(x) || !isNumber(y)) {
      return null;
    }
    double a = toDouble(x);
    double b = toDouble(y);
    return switch (op) {
      case PLUS -> a + b;
      case MINUS -> a - b;
      default -> a * b;
    };
  }

  /** Go's Float.Mod: the result has the sign of the divisor. */
  static double floatMod(double x, double y) {
    double z = x % y;
    if ((x < 0) != (y < 0) && z != 0) {
      z += y;
    }
    return z;
  }

  /** {@code x * n} for string, bytes, list and tuple; null for other types. */
  private static Value repeat(StarlarkThread thread, Value x, StarlarkInt n) throws EvalException {
    int len;
    if (x instanceof StarlarkString s) {
      len = s.len();
    } else if (x instanceof StarlarkBytes b) {
      len = b.len();
    } else if (x instanceof StarlarkList l) {
      len = l.len();
    } else if (x instanceof Tuple t) {
      len = t.len();
    } else {
      return null;
    }
    if (len == 0) {
      return emptyLike(x);
    }
    if (!n.isLong() || n.longValue() > Integer.MAX_VALUE || n.longValue() < Integer.MIN_VALUE) {
      throw new EvalException("repeat count " + n + " too large");
    }
    int i = (int) n.longValue();
    if (i < 1) {
      return emptyLike(x);
    }
    long size = (long) len * i;
    boolean isText = x instanceof StarlarkString || x instanceof StarlarkBytes;
    if (size >= MAX_ALLOC || size > (isText ? MAX_BYTES : MAX_ELEMS)) {
      throw new EvalException("excessive repeat (" + len + " * " + i + " elements)");
    }
    if (x instanceof StarlarkString s) {
      if (thread != null) {
        thread.addByteSteps(size);
        thread.allocate(size);
      }
      return StarlarkString.ofBytes(repeatBytes(s.bytes(), i));
    }
    if (x instanceof StarlarkBytes b) {
      if (thread != null) {
        thread.addByteSteps(size);
        thread.allocate(size);
      }
      return StarlarkBytes.wrap(repeatBytes(b.bytes(), i));
    }
    charge(thread, size, 8);
    Value[] src = x instanceof StarlarkList l ? l.elems.toArray(new Value[0]) : ((Tuple) x).array();
    Value[] out = new Value[(int) size];
    for (int k = 0; k < i; k++) {
      System.arraycopy(src, 0, out, k * len, len);
    }
    if (x instanceof Tuple) {
      return Tuple.wrap(out);
    }
    return new StarlarkList(new ArrayList<>(Arrays.asList(out)));
  }

  private static byte[] repeatBytes(byte[] src, int n) {
    byte[] out = new byte[src.length * n];
    for (int k = 0; k < n; k++) {
      System.arraycopy(src, 0, out, k * src.length, src.length);
    }
    return out;
  }

  private static Value emptyLike(Value x) {
    if (x instanceof StarlarkString) {
      return StarlarkString.EMPTY;
    }
    if (x instanceof StarlarkBytes) {
      return StarlarkBytes.EMPTY;
    }
    if (x instanceof StarlarkList) {
      return new StarlarkList();
    }
    return Tuple.EMPTY;
  }

  // ---------------------------------------------------------------- membership

  /** {@code needle in haystack}. */
  public static boolean in(Value needle, Value haystack) throws EvalException {
    return in(null, needle, haystack);
  }

  /** {@code needle in haystack}, charging long scans to {@code thread} (which may be null). */
  public static boolean in(StarlarkThread thread, Value needle, Value haystack)
      throws EvalException {
    if (haystack instanceof StarlarkList l) {
      Comparison cmp = new Comparison(thread);
      for (int i = 0; i < l.elems.size(); i++) {
        if (cmp.member(needle, l.elems.get(i))) {
          return true;
        }
      }
      return false;
    }
    if (haystack instanceof Tuple t) {
      Comparison cmp = new Comparison(thread);
      for (Value e : t.array()) {
        if (cmp.member(needle, e)) {
          return true;
        }
      }
      return false;
    }
    if (thread != null) {
      int n = len(haystack);
      if (n > 256) {
        thread.addSteps(n / 256);
      }
    }
    if (haystack instanceof Dict d) {
      // Go ignores lookup errors here: an unhashable needle is simply not found.
      try {
        return d.get(needle) != null;
      } catch (BudgetException e) {
        throw e;
      } catch (EvalException e) {
        return false;
      }
    }
    if (haystack instanceof StarlarkSet s) {
      try {
        return s.contains(needle);
      } catch (BudgetException e) {
        throw e;
      } catch (EvalException e) {
        return false;
      }
    }
    if (haystack instanceof StarlarkString s) {
      if (!(needle instanceof StarlarkString n)) {
        throw new EvalException(
            "'in <string>' requires string as left operand, not " + needle.type());
      }
      return StringMethods.indexOf(s.bytes(), n.bytes(), 0, s.len()) >= 0;
    }
    if (haystack instanceof StarlarkBytes b) {
      if (needle instanceof StarlarkBytes n) {
        return StringMethods.indexOf(b.bytes(), n.bytes(), 0, b.len()) >= 0;
      }
      if (needle instanceof StarlarkInt i) {
        if (!i.isLong() || i.longValue() < 0 || i.longValue() > 255) {
          throw new EvalException("int in bytes: " + i + " out of range");
        }
        for (byte x : b.bytes()) {
          if ((x & 0xFF) == i.longValue()) {
            return true;
          }
        }
        return false;
      }
      throw new EvalException(
          "'in bytes' requires bytes or int as left operand, not " + needle.type());
    }
    if (haystack instanceof RangeValue r) {
      if (needle instanceof StarlarkInt i) {
        return i.isLong() && r.containsLong(i.longValue());
      }
      if (needle instanceof StarlarkFloat f) {
        // Go's NumberToInt truncates toward zero.
        double d = f.value();
        if (!Double.isFinite(d)) {
          throw new EvalException("'in <range>' requires integer as left operand, not float");
        }
        return d >= Long.MIN_VALUE && d <= Long.MAX_VALUE && r.containsLong((long) d);
      }
      throw new EvalException(
          "'in <range>' requires integer as left operand, not " + needle.type());
    }
    if (haystack instanceof HasBinary hb) {
      Value r = hb.binary(Token.IN, needle, true);
      if (r != null) {
        return r.truth();
      }
    }
    throw new EvalException("unknown binary op: " + needle.type() + " in " + haystack.type());
  }

  // ---------------------------------------------------------------- comparison

  /**
   * As {@link #compare(Token, Value, Value)}, charging {@code thread} for the work: the elements of
   * containers, long strings or bytes and big ints (see {@link Comparison}).
   */
  public static boolean compare(StarlarkThread thread, Token op, Value x, Value y)
      throws EvalException {
    if (x instanceof StarlarkInt a && y instanceof StarlarkInt b) {
      IntOps.chargeCompare(thread, a, b);
      return threeway(op, a.compareTo(b));
    }
    if (x instanceof StarlarkString a && y instanceof StarlarkString b) {
      Comparison.chargeBytes(thread, a.len(), b.len());
      return op == Token.EQL || op == Token.NEQ
          ? a.equalsString(b) == (op == Token.EQL)
          : threeway(op, a.compareBytes(b));
    }
    return new Comparison(thread).compare(op, x, y);
  }

  /** {@code x op y} for EQL, NEQ, LT, GT, LE, GE. */
  public static boolean compare(Token op, Value x, Value y) throws EvalException {
    return compare(null, op, x, y);
  }

  /** {@code x == y}, with fast paths for the keys of dicts. */
  public static boolean equal(Value x, Value y) throws EvalException {
    return equal(null, x, y);
  }

  /** As {@link #equal(Value, Value)}, charging {@code thread} for the work. */
  public static boolean equal(StarlarkThread thread, Value x, Value y) throws EvalException {
    if (x == y && !(x instanceof StarlarkFloat)) {
      return true;
    }
    if (x instanceof StarlarkInt a && y instanceof StarlarkInt b) {
      IntOps.chargeCompare(thread, a, b);
      return a.compareTo(b) == 0;
    }
    if (x instanceof StarlarkString a) { // the common dict key
      if (!(y instanceof StarlarkString b)) {
        return false;
      }
      Comparison.chargeBytes(thread, a.len(), b.len());
      return a.equalsString(b);
    }
    return new Comparison(thread).equal(x, y);
  }

  /** Interprets a three-way comparison result for {@code op}. */
  public static boolean threeway(Token op, int cmp) {
    return switch (op) {
      case EQL -> cmp == 0;
      case NEQ -> cmp != 0;
      case LE -> cmp <= 0;
      case LT -> cmp < 0;
      case GE -> cmp >= 0;
      case GT -> cmp > 0;
      default -> throw new IllegalArgumentException("not a comparison: " + op);
    };
  }

  /** Go's floatCmp: a total order with NaN above +Inf and equal to itself. */
  static int floatCmp(double x, double y) {
    if (x > y) {
      return 1;
    } else if (x < y) {
      return -1;
    } else if (x == y) {
      return 0;
    }
    if (x == x) {
      return -1;
    } else if (y == y) {
      return 1;
    }
    return 0;
  }

  static boolean compareDoubles(Token op, double x, double y) {
    return threeway(op, floatCmp(x, y));
  }

  // ---------------------------------------------------------------- indexing and slicing

  /** {@code x[i]}. */
  public static Value index(Value x, Value i) throws EvalException {
    if (x instanceof Mapping m) {
      Value v = m.get(i);
      if (v == null) {
        throw new NoSuchKeyException("key " + i + " not in " + x.type(), m, i);
      }
      return v;
    }
    if (x instanceof Indexable ix) {
      int n = ix.len();
      int k = asInt32(i, x.type() + " index: ");
      int orig = k;
      if (k < 0) {
        k += n;
      }
      if (k < 0 || k >= n) {
        throw outOfRange(orig, n, x);
      }
      return ix.index(k);
    }
    throw new EvalException("unhandled index operation " + x.type() + "[" + i.type() + "]");
  }

  static EvalException outOfRange(int i, int n, Value x) {
    if (n == 0) {
      return new EvalException("index " + i + " out of range: empty " + x.type());
    }
    return new EvalException(
        x.type() + " index " + i + " out of range [" + (-n) + ":" + (n - 1) + "]");
  }

  /** Go's AsInt32 with an error prefix. */
  static int asInt32(Value v, String prefix) throws EvalException {
    if (!(v instanceof StarlarkInt i)) {
      throw new EvalException(prefix + "got " + v.type() + ", want int");
    }
    if (!i.isLong() || i.longValue() < Integer.MIN_VALUE || i.longValue() > Integer.MAX_VALUE) {
      throw new EvalException(prefix + i + " out of range");
    }
    return (int) i.longValue();
  }

  /** {@code x[i] = v}. */
  public static void setIndex(Value x, Value i, Value v) throws EvalException {
    if (x instanceof HasSetKey m) {
      m.setKey(i, v);
      return;
    }
    if (x instanceof HasSetIndex ix) {
      int n = ix.len();
      int k = asInt32(i, "");
      int orig = k;
      if (k < 0) {
        k += n;
      }
      if (k < 0 || k >= n) {
        throw outOfRange(orig, n, x);
      }
      ix.setIndex(k, v);
      return;
    }
    throw new EvalException(x.type() + " value does not support item assignment");
  }

  /** {@code x[lo:hi:step]}; absent bounds may be null or None. */
  public static Value slice(Value x, Value lo, Value hi, Value step) throws EvalException {
    if (!(x instanceof Sliceable s)) {
      throw new EvalException("invalid slice operand " + x.type());
    }
    int n = s.len();
    int st = 1;
    if (step != null && step != NoneValue.NONE) {
      st = asInt32(step, "invalid slice step: ");
      if (st == 0) {
        throw new EvalException("zero is not a valid slice step");
      }
    }
    int start;
    int end;
    if (st > 0) {
      start = asIndex(lo, n, 0, "invalid start index: ");
      start = Math.max(0, Math.min(start, n));
      end = asIndex(hi, n, n, "invalid end index: ");
      end = Math.max(0, Math.min(end, n));
      if (end < start) {
        end = start;
      }
    } else {
      start = asIndex(lo, n, n - 1, "invalid start index: ");
      if (start >= n) {
        start = n - 1;
      }
      end = asIndex(hi, n, -1, "invalid end index: ");
      if (end < -1) {
        end = -1;
      }
      if (start < end) {
        start = end;
      }
    }
    return s.slice(start, end, st);
  }

  private static int asIndex(Value v, int len, int dflt, String prefix) throws EvalException {
    if (v == null || v == NoneValue.NONE) {
      return dflt;
    }
    long r = asInt32(v, prefix);
    if (r < 0) {
      r += len;
    }
    return (int) Math.max(Integer.MIN_VALUE, r);
  }

  /** The number of elements of a normalised slice. */
  static int sliceLength(int start, int end, int step) {
    if (step > 0) {
      return end > start ? (int) (((long) end - start + step - 1) / step) : 0;
    }
    return start > end ? (int) (((long) start - end - step - 1) / (-(long) step)) : 0;
  }

  /**
   * The bytes of {@code src[start:end:step]} (indices already clamped), for str and bytes slices.
   */
  static byte[] sliceBytes(byte[] src, int start, int end, int step) {
    byte[] out = new byte[sliceLength(start, end, step)];
    for (int i = 0, j = start; i < out.length; i++, j += step) {
      out[i] = src[j];
    }
    return out;
  }

  // ---------------------------------------------------------------- attributes

  /** {@code x.name}, with a spelling hint on failure. */
  public static Value getAttr(Value x, String name) throws EvalException {
    if (!(x instanceof HasAttrs h)) {
      throw new NoSuchAttributeException(
          x.type() + " has no ." + name + " field or method", x, name);
    }
    Value v = h.attr(name);
    if (v != null) {
      return v;
    }
    String msg = x.type() + " has no ." + name + " field or method";
    String hint = Spell.nearest(name, h.attrNames());
    if (hint != null) {
      msg += " (did you mean ." + hint + "?)";
    }
    throw new NoSuchAttributeException(msg, x, name);
  }

  /** {@code x.name = v}. */
  public static void setField(Value x, String name, Value v) throws EvalException {
    if (x instanceof HasSetField h) {
      h.setField(name, v);
      return;
    }
    throw new EvalException("can't assign to ." + name + " field of " + x.type());
  }

  // ---------------------------------------------------------------- iteration and len

  /** Starts iterating {@code x}; fails with "T value is not iterable". Close the iterator. */
  public static Iterator iterate(Value x) throws EvalException {
    if (x instanceof Iterable it) {
      return it.iterate();
    }
    throw new EvalException(x.type() + " value is not iterable");
  }

  /** The length of {@code x}, or -1 if it has none. */
  public static int len(Value x) {
    if (x instanceof Sequence s) {
      return s.len();
    }
    if (x instanceof Indexable i) {
      return i.len();
    }
    return -1;
  }

  /** Collects the elements of an iterable, charging one step per 16 elements. */
  static ArrayList<Value> toList(StarlarkThread thread, Iterable it) throws EvalException {
    if (it instanceof StarlarkList l) {
      charge(thread, l.len(), 8);
      return new ArrayList<>(l.elems);
    }
    if (it instanceof Tuple t) {
      charge(thread, t.len(), 8);
      return new ArrayList<>(Arrays.asList(t.array()));
    }
    int hint = it instanceof Sequence s ? s.len() : 8;
    checkElems(hint);
    if (thread != null && it instanceof Sequence) {
      charge(thread, hint, 8);
    }
    ArrayList<Value> out = new ArrayList<>(Math.min(hint, 1 << 16));
    try (Iterator iter = it.iterate()) {
      Value v;
      int k = 0;
      while ((v = iter.next()) != null) {
        out.add(v);
        if ((++k & 1023) == 0 && out.size() > MAX_ELEMS) {
          checkElems(out.size());
        }
        if (thread != null && (k & 1023) == 0 && !(it instanceof Sequence)) {
          thread.addSteps(64);
          thread.allocate(8 * 1024);
        } else if (thread != null && (k & 1023) == 0) {
          thread.checkCancelled();
        }
      }
    }
    return out;
  }

  /** repr(x) as a Java string. */
  public static String repr(Value x) {
    StringBuilder sb = new StringBuilder();
    x.repr(sb);
    return sb.toString();
  }

  /** str(x) as a Java string. */
  public static String str(Value x) {
    if (x instanceof StarlarkString s) {
      return s.value();
    }
    StringBuilder sb = new StringBuilder();
    x.str(sb);
    return sb.toString();
  }

  /**
   * repr(x) (or str(x)) for builtins: bounded by the thread's remaining allocation budget and by
   * {@link #MAX_BYTES} (shared sub-structures can make a repr exponentially larger than the value),
   * and charged to the step budget.
   */
  static String render(StarlarkThread thread, Value x, boolean str) throws EvalException {
    long limit = MAX_BYTES;
    if (thread != null) {
      limit = Math.min(limit, Math.max(0, thread.remainingAllocBytes()));
    }
    String s;
    try {
      s = Printer.render(thread, x, str, limit);
    } catch (Printer.TooLarge e) {
      if (thread != null && limit < MAX_BYTES) {
        thread.allocate(limit + 1); // reports the allocation budget
      }
      throw new EvalException("value too large to print (more than " + limit + " bytes)");
    }
    if (thread != null) {
      thread.allocate(s.length()); // the steps were charged as it printed
    }
    return s;
  }
}
