package dev.agentcompute.starlark.testmode;

import dev.agentcompute.starlark.resolve.Resolver;
import dev.agentcompute.starlark.syntax.FileNode;
import dev.agentcompute.starlark.syntax.Parser;
import dev.agentcompute.starlark.syntax.SyntaxError;
import java.io.PrintStream;
import java.util.Map;

/**
 * The conformance runner's test mode (docs/reference/starlark.md#test-mode): parse, resolve or
 * execute a chunk as the {@code STARLARK_TEST_*} settings say, with the embedded assert.star, the
 * loader and the test helpers, and report as starlark-go's test harness does.
 */
public final class TestMode {
  private TestMode() {}

  /** Runs {@code src} (file {@code file}) with the settings in {@code env}; the exit status. */
  public static int run(String file, String src, Map<String, String> env, PrintStream err) {
    return run(file, src, TestEnv.from(env), err);
  }

  static int run(String file, String src, TestEnv env, PrintStream err) {
    try {
      FileNode f = Parser.parseFile(file, src);
      if (env.mode().equals("parse")) {
        return 0;
      }
      if (env.mode().equals("resolve")) {
        Resolver.resolve(f, env.dialect(), env.predeclared()::contains, name -> false);
        return 0;
      }
      return TestExec.run(file, src, env, err);
    } catch (SyntaxError e) {
      return syntaxFailure(e, err);
    }
  }

  /** Prints every static error, one a line, as the runner expects. */
  static int syntaxFailure(SyntaxError e, PrintStream err) {
    for (SyntaxError.Item item : e.errors()) {
      err.println(item);
    }
    return 1;
  }
}
