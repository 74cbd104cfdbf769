package dev.agentcompute.starlark.cli;

import dev.agentcompute.starlark.syntax.FileNode;
import dev.agentcompute.starlark.syntax.SyntaxError;
import java.io.PrintStream;

/** The conformance runner's test mode (spec/starlark.md §3.2). */
final class TestMode {
  private TestMode() {}

  static int run(String file, String src, TestEnv env, PrintStream err) {
    try {
      FileNode f = Main.parse(file, src);
      if (env.mode().equals("parse")) {
        return 0;
      }
      if (env.mode().equals("resolve")) {
        Main.resolveOnly(f, env);
        return 0;
      }
      return TestExec.run(file, src, env, err);
    } catch (SyntaxError e) {
      return Main.syntaxFailure(e, err);
    }
  }
}
