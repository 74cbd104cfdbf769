package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Token;
import java.util.ArrayList;

/** Small adapters between the evaluator and the value model. */
final class EvalSupport {
  private EvalSupport() {}

  static Value binary(StarlarkThread thread, Token op, Value x, Value y) throws EvalException {
    return switch (op) {
      case EQL, NEQ, LT, GT, LE, GE -> Bool.of(Operators.compare(thread, op, x, y));
      case IN -> Bool.of(Operators.in(thread, x, y));
      case NOT_IN -> Bool.of(!Operators.in(thread, x, y));
      default -> Operators.binary(thread, op, x, y);
    };
  }

  /** {@code list += iterable}: extends in place (Go's INPLACE_ADD). */
  static void listExtendInPlace(StarlarkList list, Iterable y) throws EvalException {
    if (list.isFrozen()) {
      throw new EvalException("cannot apply += to frozen list");
    }
    ArrayList<Value> items = new ArrayList<>();
    Iterator it = y.iterate();
    try {
      Value v;
      while ((v = it.next()) != null) {
        items.add(v);
      }
    } finally {
      it.close();
    }
    for (Value v : items) {
      list.append(v);
    }
  }

  /** {@code dict |= dict}: updates in place (Go's INPLACE_PIPE). */
  static void dictUpdateInPlace(Dict d, Dict other) throws EvalException {
    for (var e : other.entries()) {
      d.put(e.getKey(), e.getValue());
    }
  }
}
