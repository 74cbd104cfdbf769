package dev.agentcompute.rego;

import dev.agentcompute.rego.syntax.Position;
import java.util.Optional;

/**
 * Evaluation stopped. {@link #kind()} says why; {@link #code()} is OPA's error code ({@code
 * eval_conflict_error}, {@code eval_type_error}, {@code eval_builtin_error}, ...). The message is
 * {@code file:line:col: code: detail} when the failure has a place.
 */
public final class RegoEvalException extends RegoException {

  /** Why evaluation stopped. */
  public enum Kind {
    /** A complete rule, function or object produced conflicting values. */
    CONFLICT,
    /** A builtin got an operand of the wrong type (strict builtin errors). */
    TYPE,
    /** A builtin failed (strict builtin errors). */
    BUILTIN,
    /** The step budget ran out. */
    BUDGET,
    /** Evaluation nested deeper than allowed. */
    DEPTH,
    /** The cancellation hook fired or the thread was interrupted. */
    CANCELED,
    /** A bug: the compiler let through something the evaluator cannot run. */
    INTERNAL
  }

  private final Kind kind;
  private final String code;
  private final Position position;
  private final String detail;

  RegoEvalException(Kind kind, String code, Position position, String detail, String message) {
    super(message);
    this.kind = kind;
    this.code = code;
    this.position = position;
    this.detail = detail;
  }

  public Kind kind() {
    return kind;
  }

  public String code() {
    return code;
  }

  public Optional<Position> position() {
    return Optional.ofNullable(position);
  }

  /** The message without position and code. */
  public String detail() {
    return detail;
  }

  /** Whether a resource bound (steps or depth) stopped the evaluation. */
  public boolean isBudget() {
    return kind == Kind.BUDGET || kind == Kind.DEPTH;
  }
}
