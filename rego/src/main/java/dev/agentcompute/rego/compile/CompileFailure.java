package dev.agentcompute.rego.compile;

import java.util.List;

/** Compilation failed; {@link #problems()} lists every error found, in source order. */
public final class CompileFailure extends Exception {
  private final List<Problem> problems;

  public CompileFailure(List<Problem> problems) {
    super(render(problems), null, false, false);
    this.problems = List.copyOf(problems);
  }

  private static String render(List<Problem> problems) {
    StringBuilder b = new StringBuilder();
    for (Problem p : problems) {
      if (!b.isEmpty()) {
        b.append('\n');
      }
      b.append(p);
    }
    return b.toString();
  }

  public List<Problem> problems() {
    return problems;
  }
}
