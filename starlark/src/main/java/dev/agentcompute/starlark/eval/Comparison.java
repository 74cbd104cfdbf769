package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Token;
import java.math.BigDecimal;
import java.util.List;

/**
 * One comparison of two values and of everything they contain, as starlark-go compares: by type,
 * element by element for sequences, with nesting bounded so that a cycle fails instead of looping.
 * The work is charged to the thread, if there is one: two lists of a million elements are a million
 * element comparisons (one step per {@value #ELEMENTS_PER_STEP}, as other bulk work), and long
 * strings and big ints are charged by their size.
 */
public final class Comparison {
  /** Go's maximum nesting for comparisons. */
  static final int MAX_DEPTH = 10;

  /** Element comparisons charged as one step, as list operations charge per element. */
  static final int ELEMENTS_PER_STEP = 16;

  private final StarlarkThread thread;
  private int depth = MAX_DEPTH;
  private int uncharged;

  /** A comparison charged to {@code thread} (none if null). */
  Comparison(StarlarkThread thread) {
    this.thread = thread;
  }

  /** {@code x == y}. */
  public boolean equal(Value x, Value y) throws EvalException {
    if (x instanceof StarlarkString a) {
      if (!(y instanceof StarlarkString b)) {
        return false;
      }
      chargeBytes(a.len(), b.len());
      return a.equalsString(b);
    }
    return compare(Token.EQL, x, y);
  }

  /** {@code x op y} for EQL, NEQ, LT, GT, LE, GE. */
  public boolean compare(Token op, Value x, Value y) throws EvalException {
    if (depth < 1) {
      throw new EvalException("comparison exceeded maximum recursion depth");
    }
    if (x.getClass() == y.getClass()) {
      if (x instanceof Comparable c) {
        chargeLeaf(x, y);
        depth--;
        try {
          return c.compareSameType(op, y, this);
        } finally {
          depth++;
        }
      }
      return byIdentity(op, x, y, x == y); // functions, modules, ...
    }
    if (x instanceof StarlarkInt a && y instanceof StarlarkFloat b) {
      return Operators.threeway(op, compareIntFloat(a, b.value()));
    }
    if (x instanceof StarlarkFloat a && y instanceof StarlarkInt b) {
      return Operators.threeway(op, -compareIntFloat(b, a.value()));
    }
    return byIdentity(op, x, y, false); // values of different types are never equal
  }

  /** {@code ==} and {@code !=} by whether x and y are {@code same}; no order. */
  private static boolean byIdentity(Token op, Value x, Value y, boolean same) throws EvalException {
    return switch (op) {
      case EQL -> same;
      case NEQ -> !same;
      default -> throw new EvalException(x.type() + " " + op + " " + y.type() + " not implemented");
    };
  }

  /** Sequences compared element by element, then by length (lists and tuples). */
  public boolean elements(Token op, List<Value> x, List<Value> y) throws EvalException {
    if (x.size() != y.size() && (op == Token.EQL || op == Token.NEQ)) {
      return op == Token.NEQ;
    }
    int n = Math.min(x.size(), y.size());
    for (int i = 0; i < n; i++) {
      count(1);
      Value a = x.get(i);
      Value b = y.get(i);
      if (!equal(a, b)) {
        switch (op) {
          case EQL:
            return false;
          case NEQ:
            return true;
          default:
            return compare(op, a, b);
        }
      }
    }
    return Operators.threeway(op, Integer.compare(x.size(), y.size()));
  }

  /** Whether {@code x} equals the element {@code y} of a sequence being scanned (counted). */
  public boolean member(Value x, Value y) throws EvalException {
    count(1);
    return x == y && !(x instanceof StarlarkFloat) || equal(x, y);
  }

  /** Charges {@code n} element comparisons made by a container (a dict's entries, say). */
  public void count(int n) throws EvalException {
    if (thread != null) {
      uncharged += n;
      if (uncharged >= ELEMENTS_PER_STEP) {
        thread.addSteps(uncharged / ELEMENTS_PER_STEP);
        uncharged %= ELEMENTS_PER_STEP;
      }
    }
  }

  /** Charges comparing two values whose comparison costs time in proportion to their size. */
  private void chargeLeaf(Value x, Value y) throws EvalException {
    if (thread == null) {
      return;
    }
    if (x instanceof StarlarkInt a) {
      IntOps.chargeCompare(thread, a, (StarlarkInt) y);
    } else if (x instanceof StarlarkString a) {
      chargeBytes(a.len(), ((StarlarkString) y).len());
    } else if (x instanceof StarlarkBytes a) {
      chargeBytes(a.len(), ((StarlarkBytes) y).len());
    }
  }

  private void chargeBytes(int lenA, int lenB) throws EvalException {
    chargeBytes(thread, lenA, lenB);
  }

  /** Charges comparing byte strings of these lengths to {@code thread}, if there is one. */
  static void chargeBytes(StarlarkThread thread, int lenA, int lenB) throws EvalException {
    int n = Math.min(lenA, lenB);
    if (n > 4096 && thread != null) { // shorter ones cost no more than the evaluator's step
      thread.addByteSteps(n);
    }
  }

  /** Go's int-float comparison: NaN above everything, infinities beyond every int. */
  private static int compareIntFloat(StarlarkInt a, double d) {
    if (Double.isNaN(d)) {
      return -1;
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? -1 : 1;
    }
    if (a.isLong()) {
      long l = a.longValue();
      if (Math.abs(l) < (1L << 53)) {
        return Double.compare((double) l, d) == 0 ? 0 : ((double) l < d ? -1 : 1);
      }
    }
    if (a.bitLength() > 1024) { // beyond every finite double: no need to convert a huge int
      return a.signum();
    }
    return new BigDecimal(a.toBigInteger()).compareTo(new BigDecimal(d));
  }
}
