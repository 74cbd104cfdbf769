package dev.agentcompute.rego;

import java.util.List;

/**
 * The modules or query did not compile. The message lists every problem, one per line, as {@code
 * file:line:col: code: message}.
 */
public final class RegoCompileException extends RegoException {
  private final List<RegoProblem> problems;

  RegoCompileException(List<RegoProblem> problems) {
    super(render(problems));
    this.problems = List.copyOf(problems);
  }

  private static String render(List<RegoProblem> problems) {
    StringBuilder b = new StringBuilder();
    for (RegoProblem p : problems) {
      if (!b.isEmpty()) {
        b.append('\n');
      }
      b.append(p);
    }
    return b.toString();
  }

  public List<RegoProblem> problems() {
    return problems;
  }
}
