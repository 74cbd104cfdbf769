package dev.agentcompute.rego;

/** Every failure the front door reports: a compile error or an evaluation error. */
public sealed class RegoException extends Exception
    permits RegoCompileException, RegoEvalException {
  RegoException(String message) {
    super(message, null, false, false);
  }
}
