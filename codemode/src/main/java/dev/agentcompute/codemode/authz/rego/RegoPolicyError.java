package dev.agentcompute.codemode.authz.rego;

/**
 * An ordinary Rego policy error: a rejected constructor argument or policy (the message names what
 * and where, e.g. {@code policy.rego:3:7: rego_unsafe_var_error: var x is unsafe}), or an
 * evaluation that produced no decision ({@code rego: decision is undefined}, {@code rego: decision
 * must be boolean}, or an evaluation failure). CodeMode maps it to {@code authorization policy
 * failure}; it is never a denial.
 */
public final class RegoPolicyError extends Exception {
  public RegoPolicyError(String message) {
    super(message);
  }

  public RegoPolicyError(String message, Throwable cause) {
    super(message, cause);
  }
}
