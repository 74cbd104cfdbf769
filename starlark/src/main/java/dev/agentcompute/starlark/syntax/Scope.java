package dev.agentcompute.starlark.syntax;

/** Where a resolved identifier lives at run time (starlark-go's resolve.Scope). */
public enum Scope {
  UNDEFINED("undefined"),
  LOCAL("local"),
  CELL("cell"),
  FREE("free"),
  GLOBAL("global"),
  PREDECLARED("predeclared"),
  UNIVERSAL("universal");

  private final String text;

  Scope(String text) {
    this.text = text;
  }

  @Override
  public String toString() {
    return text;
  }
}
