package dev.agentcompute.starlark.eval;

/** String interpolation: {@code fmt % args} and {@code str.format}. */
final class Formatter {
  private Formatter() {}

  static Value percent(StarlarkThread thread, StarlarkString fmt, Value args) throws EvalException {
    throw new EvalException("% formatting not yet implemented");
  }
}
