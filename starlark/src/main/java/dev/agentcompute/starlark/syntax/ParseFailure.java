package dev.agentcompute.starlark.syntax;

/** Unwinds the scanner and parser on the first syntax error; converted to {@link SyntaxError}. */
final class ParseFailure extends RuntimeException {
  final Position pos;

  ParseFailure(Position pos, String msg) {
    super(msg, null, false, false);
    this.pos = pos;
  }
}
