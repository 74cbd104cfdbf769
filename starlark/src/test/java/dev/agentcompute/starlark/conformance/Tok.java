package dev.agentcompute.starlark.conformance;

/** A token of {@link StatementScanner}: its kind, text and the lines it starts and ends on. */
record Tok(Kind kind, String text, int line, int endLine) {
  enum Kind {
    NAME,
    NUMBER,
    STRING,
    OP
  }

  boolean is(Kind k, String s) {
    return kind == k && text.equals(s);
  }

  boolean isOp(String s) {
    return kind == Kind.OP && text.equals(s);
  }

  boolean isOpen() {
    return kind == Kind.OP && (text.equals("(") || text.equals("[") || text.equals("{"));
  }

  boolean isClose() {
    return kind == Kind.OP && (text.equals(")") || text.equals("]") || text.equals("}"));
  }
}
