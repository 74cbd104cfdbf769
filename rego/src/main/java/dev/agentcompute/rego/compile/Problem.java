package dev.agentcompute.rego.compile;

import dev.agentcompute.rego.syntax.Position;

/** One compile error: an OPA-style code ({@code rego_parse_error}, ...), where, and what. */
public record Problem(String code, Position pos, String message) {

  @Override
  public String toString() {
    return pos + ": " + code + ": " + message;
  }
}
