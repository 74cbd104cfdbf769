package dev.agentcompute.starlark.syntax;

/** A source location: file name, 1-based line and 1-based column (counted in code points). */
public record Position(String file, int line, int col) {
  public static final Position UNKNOWN = new Position("<unknown>", 0, 0);

  public boolean isValid() {
    return line >= 1;
  }

  /** {@code file:line:col}; a position without a line (a builtin's frame) prints its file alone. */
  @Override
  public String toString() {
    if (line <= 0) {
      return file;
    }
    return col > 0 ? file + ":" + line + ":" + col : file + ":" + line;
  }
}
