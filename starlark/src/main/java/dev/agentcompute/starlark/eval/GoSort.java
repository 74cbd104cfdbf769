package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Token;

/**
 * Go's {@code sort.Stable} (insertion-sorted blocks of 20, then SymMerge) over Starlark values, so
 * that {@code sorted} performs the same comparisons as starlark-go and reports the same error (the
 * last failed comparison) for unorderable elements.
 */
final class GoSort {
  private final Value[] keys;
  private final Value[] values;
  private final boolean reverse;
  private final StarlarkThread thread;
  private EvalException err;
  private long comparisons;

  private GoSort(StarlarkThread thread, Value[] keys, Value[] values, boolean reverse) {
    this.thread = thread;
    this.keys = keys;
    this.values = values;
    this.reverse = reverse;
  }

  /** Sorts {@code values} (and {@code keys}, the sort keys, in parallel; may be the same array). */
  static void sort(StarlarkThread thread, Value[] keys, Value[] values, boolean reverse)
      throws EvalException {
    if (thread != null && thread.isCancelled()) {
      thread.checkCancelled();
    }
    try {
      if (sortHomogeneous(thread, keys, values, reverse)) {
        return;
      }
    } catch (OverBudget o) {
      throw o.budget;
    }
    GoSort s = new GoSort(thread, keys, values, reverse);
    s.stable(values.length);
    if (s.err != null) {
      throw s.err;
    }
  }

  /** Carries a budget error (or cancellation) out of a comparator-driven sort. */
  private static final class OverBudget extends RuntimeException {
    final EvalException budget;

    OverBudget(EvalException budget) {
      super(null, null, false, false);
      this.budget = budget;
    }
  }

  /**
   * Keys that are all ints or all strings are totally ordered and never fail to compare, so any
   * stable sort yields Go's result; Java's TimSort does fewer comparisons than SymMerge. The
   * comparisons are charged as GoSort's are (16 steps per 256), and strings longer than 4 KiB by
   * their length.
   */
  private static boolean sortHomogeneous(
      StarlarkThread thread, Value[] keys, Value[] values, boolean reverse) {
    if (keys.length < 2) {
      return true;
    }
    Class<?> c = keys[0].getClass();
    if (c != StarlarkInt.class && c != StarlarkString.class) {
      return false;
    }
    for (Value k : keys) {
      if (k.getClass() != c) {
        return false;
      }
    }
    java.util.Comparator<Value> order =
        c == StarlarkInt.class
            ? (a, b) -> ((StarlarkInt) a).compareTo((StarlarkInt) b)
            : (a, b) -> ((StarlarkString) a).compareBytes((StarlarkString) b);
    int[] count = {0};
    java.util.Comparator<Value> cmp =
        (a, b) -> {
          if (thread != null) {
            try {
              if ((++count[0] & 255) == 0) {
                thread.addSteps(16); // also observes cancellation, promptly inside a long sort
              }
              chargeLeaves(thread, a, b);
            } catch (EvalException e) {
              throw new OverBudget(e);
            }
          }
          return order.compare(a, b);
        };
    if (reverse) {
      cmp = cmp.reversed();
    }
    if (keys == values) {
      java.util.Arrays.sort(values, cmp);
      return true;
    }
    Integer[] idx = new Integer[keys.length];
    for (int i = 0; i < idx.length; i++) {
      idx[i] = i;
    }
    java.util.Comparator<Value> byKey = cmp;
    java.util.Arrays.sort(idx, (a, b) -> byKey.compare(keys[a], keys[b]));
    Value[] sortedValues = new Value[values.length];
    Value[] sortedKeys = new Value[keys.length];
    for (int i = 0; i < idx.length; i++) {
      sortedValues[i] = values[idx[i]];
      sortedKeys[i] = keys[idx[i]];
    }
    System.arraycopy(sortedValues, 0, values, 0, values.length);
    System.arraycopy(sortedKeys, 0, keys, 0, keys.length);
    return true;
  }

  /** Charges comparing two big ints, or two strings longer than 4 KiB, by their size. */
  private static void chargeLeaves(StarlarkThread thread, Value a, Value b) throws EvalException {
    if (a instanceof StarlarkInt x) {
      IntOps.chargeCompare(thread, x, (StarlarkInt) b);
    } else {
      int n = Math.min(((StarlarkString) a).len(), ((StarlarkString) b).len());
      if (n > 4096) {
        thread.addByteSteps(n);
      }
    }
  }

  private boolean less(int i, int j) throws EvalException {
    if (reverse) {
      int t = i;
      i = j;
      j = t;
    }
    if ((++comparisons & 255) == 0 && thread != null) {
      thread.addSteps(16);
    }
    try {
      return Operators.compare(thread, Token.LT, keys[i], keys[j]);
    } catch (BudgetException e) {
      throw e;
    } catch (EvalException e) {
      err = e;
      return false;
    }
  }

  private void swap(int i, int j) {
    Value t = values[i];
    values[i] = values[j];
    values[j] = t;
    if (keys != values) {
      t = keys[i];
      keys[i] = keys[j];
      keys[j] = t;
    }
  }

  private void insertionSort(int a, int b) throws EvalException {
    for (int i = a + 1; i < b; i++) {
      for (int j = i; j > a && less(j, j - 1); j--) {
        swap(j, j - 1);
      }
    }
  }

  private void stable(int n) throws EvalException {
    int blockSize = 20;
    int a = 0;
    int b = blockSize;
    while (b <= n) {
      insertionSort(a, b);
      a = b;
      b += blockSize;
    }
    insertionSort(a, n);
    while (blockSize < n) {
      a = 0;
      b = 2 * blockSize;
      while (b <= n) {
        symMerge(a, a + blockSize, b);
        a = b;
        b += 2 * blockSize;
      }
      int m = a + blockSize;
      if (m < n) {
        symMerge(a, m, n);
      }
      blockSize *= 2;
    }
  }

  private void symMerge(int a, int m, int b) throws EvalException {
    if (m - a == 1) {
      int i = m;
      int j = b;
      while (i < j) {
        int h = (i + j) >>> 1;
        if (less(h, a)) {
          i = h + 1;
        } else {
          j = h;
        }
      }
      for (int k = a; k < i - 1; k++) {
        swap(k, k + 1);
      }
      return;
    }
    if (b - m == 1) {
      int i = a;
      int j = m;
      while (i < j) {
        int h = (i + j) >>> 1;
        if (!less(m, h)) {
          i = h + 1;
        } else {
          j = h;
        }
      }
      for (int k = m; k > i; k--) {
        swap(k, k - 1);
      }
      return;
    }
    int mid = (a + b) >>> 1;
    int n = mid + m;
    int start;
    int r;
    if (m > mid) {
      start = n - b;
      r = mid;
    } else {
      start = a;
      r = m;
    }
    int p = n - 1;
    while (start < r) {
      int c = (start + r) >>> 1;
      if (!less(p - c, c)) {
        start = c + 1;
      } else {
        r = c;
      }
    }
    int end = n - start;
    if (start < m && m < end) {
      rotate(start, m, end);
    }
    if (a < start && start < mid) {
      symMerge(a, start, mid);
    }
    if (mid < end && end < b) {
      symMerge(mid, end, b);
    }
  }

  private void rotate(int a, int m, int b) {
    int i = m - a;
    int j = b - m;
    while (i != j) {
      if (i > j) {
        swapRange(m - i, m, j);
        i -= j;
      } else {
        swapRange(m - i, m + j - i, i);
        j -= i;
      }
    }
    swapRange(m - i, m, i);
  }

  private void swapRange(int a, int b, int n) {
    for (int i = 0; i < n; i++) {
      swap(a + i, b + i);
    }
  }
}
