package dev.agentcompute.rego.syntax;

/** One problem found while scanning or parsing, with its position. */
public final class RegoSyntaxError extends Exception {
  private final Position position;
  private final String detail;

  public RegoSyntaxError(Position position, String detail) {
    super(position + ": rego_parse_error: " + detail, null, false, false);
    this.position = position;
    this.detail = detail;
  }

  public Position position() {
    return position;
  }

  /** The message without position and code. */
  public String detail() {
    return detail;
  }
}
