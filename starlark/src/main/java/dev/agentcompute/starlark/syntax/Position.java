package dev.agentcompute.starlark.syntax;

/** A source location: file name, 1-based line and 1-based column (counted in code points). */
public record Position(String file, int line, int col) {
  public static final Position UNKNOWN = new Position("<unknown>", 0, 0);

  public boolean isValid() {
    return line >= 1;
  }

  @Override
  public String toString() {
    return col > 0 ? file + ":" + line + ":" + col : file + ":" + line;
  }
}
