package dev.agentcompute.starlark.eval;

/**
 * Writes the repr of nested containers, printing a container already being printed (a cycle) as
 * {@code [...]}, {@code {...}} or {@code (...)}, as starlark-go does. One instance per top-level
 * call.
 */
final class Printer {
  /** Thrown when a rendering exceeds its size limit; converted to an EvalException by callers. */
  static final class TooLarge extends RuntimeException {
    TooLarge() {
      super("value too large to print", null, false, false);
    }
  }

  /** Containers that can take part in a cycle print their elements through a Printer. */
  interface Nested extends Value {
    void reprNested(StringBuilder sb, Printer p);

    /** What a cycle back to this container prints. */
    String cycleMarker();
  }

  /** Carries a budget error out of {@link #repr}, whose callers cannot throw checked ones. */
  private static final class OverBudget extends RuntimeException {
    final EvalException budget;

    OverBudget(EvalException budget) {
      super(null, null, false, false);
      this.budget = budget;
    }
  }

  private final VisitPath path = new VisitPath();
  private final long limit;
  private final StarlarkThread thread; // charged as it prints, if not null
  private long charged; // characters of output charged so far

  /** Characters printed between charges (a shared value can print exponentially much). */
  private static final int CHARGE_EVERY = 1 << 16;

  /** The cap of a repr printed without a thread (error messages, toString): then "...". */
  static final int UNCHARGED_LIMIT = 1 << 20;

  private Printer(long limit, StarlarkThread thread) {
    this.limit = limit;
    this.thread = thread;
  }

  /**
   * Appends the repr of {@code top} without a thread to charge, as error messages and toString do:
   * cut at {@link #UNCHARGED_LIMIT} characters with {@code ...}, since a value of shared parts can
   * print exponentially much.
   */
  static void print(StringBuilder sb, Nested top) {
    try {
      new Printer(sb.length() + (long) UNCHARGED_LIMIT, null).repr(sb, top);
    } catch (TooLarge e) {
      sb.append("...");
    }
  }

  /**
   * The repr (or str) of {@code v}, failing with TooLarge beyond {@code limit} characters. The
   * output (one step per 64 bytes) and the conversion of big ints to digits are charged to {@code
   * thread} as it goes, so that the step budget stops a print that would run long.
   */
  static String render(StarlarkThread thread, Value v, boolean str, long limit)
      throws EvalException {
    if (str && v instanceof StarlarkString s) {
      if (thread != null) {
        thread.addByteSteps(s.len());
      }
      return s.value();
    }
    StringBuilder sb = new StringBuilder();
    Printer p = new Printer(limit, thread);
    try {
      p.repr(sb, v);
    } catch (OverBudget e) {
      throw e.budget;
    }
    if (thread != null) {
      thread.addByteSteps(sb.length() - p.charged);
    }
    return sb.toString();
  }

  void repr(StringBuilder sb, Value v) {
    if (sb.length() > limit) {
      throw new TooLarge();
    }
    if (thread != null && (sb.length() - charged > CHARGE_EVERY || v instanceof StarlarkInt)) {
      try {
        if (sb.length() - charged > CHARGE_EVERY) {
          thread.addByteSteps(sb.length() - charged);
          charged = sb.length();
        }
        if (v instanceof StarlarkInt i) {
          IntCost.toText(thread, i);
        }
      } catch (EvalException e) {
        throw new OverBudget(e);
      }
    }
    if (v instanceof Nested n) {
      if (!path.enter(v)) {
        sb.append(n.cycleMarker());
        return;
      }
      n.reprNested(sb, this);
      path.leave();
    } else {
      v.repr(sb);
    }
  }
}
