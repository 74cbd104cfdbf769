package dev.agentcompute.rego.eval;

import dev.agentcompute.rego.syntax.Position;

/**
 * Why an evaluation stopped: a conflict, a (strict) builtin error, the step budget, the depth guard
 * or cancellation. Unchecked inside the evaluator (continuations cannot declare checked
 * exceptions); the front door turns it into a checked exception.
 */
public final class EvalFailure extends RuntimeException {
  public static final String CONFLICT = "eval_conflict_error";
  public static final String TYPE = "eval_type_error";
  public static final String BUILTIN = "eval_builtin_error";
  public static final String BUDGET = "eval_budget_error";
  public static final String DEPTH = "eval_depth_error";
  public static final String CANCEL = "eval_cancel_error";
  public static final String INTERNAL = "eval_internal_error";

  private final String code;
  private final Position pos;
  private final String detail;

  public EvalFailure(String code, Position pos, String detail) {
    super(
        pos == null ? code + ": " + detail : pos + ": " + code + ": " + detail, null, false, false);
    this.code = code;
    this.pos = pos;
    this.detail = detail;
  }

  /** OPA's error code, e.g. {@code eval_conflict_error}. */
  public String code() {
    return code;
  }

  /** Where it happened; null when not tied to a place (budget, cancellation). */
  public Position pos() {
    return pos;
  }

  /** The message without position and code. */
  public String detail() {
    return detail;
  }
}
