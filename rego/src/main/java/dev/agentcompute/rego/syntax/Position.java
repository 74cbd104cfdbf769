package dev.agentcompute.rego.syntax;

/** A place in a Rego source: file name, 1-based line and column (in characters). */
public record Position(String file, int line, int col) {

  @Override
  public String toString() {
    return file + ":" + line + ":" + col;
  }
}
