package dev.agentcompute.rego;

import dev.agentcompute.rego.syntax.Position;

/**
 * One compile error: OPA's code ({@code rego_parse_error}, {@code rego_unsafe_var_error}, {@code
 * rego_type_error}, {@code rego_compile_error}, {@code rego_recursion_error}), position and
 * message.
 */
public record RegoProblem(String code, Position position, String message) {

  @Override
  public String toString() {
    return position + ": " + code + ": " + message;
  }
}
