package dev.agentcompute.starlark.testmode;

import dev.agentcompute.starlark.Dialect;
import dev.agentcompute.starlark.Starlark;
import dev.agentcompute.starlark.eval.EvalError;
import dev.agentcompute.starlark.eval.EvalException;
import dev.agentcompute.starlark.eval.Program;
import dev.agentcompute.starlark.eval.StarlarkThread;
import dev.agentcompute.starlark.eval.Value;
import dev.agentcompute.starlark.syntax.Position;
import dev.agentcompute.starlark.syntax.SyntaxError;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Exec mode of the test contract: run the file as a module with assert, json, math and loads. */
final class TestExec {
  private TestExec() {}

  static int run(String file, String src, TestEnv env, PrintStream err) {
    AssertModule asserts = new AssertModule(file, err);
    StarlarkThread thread = new StarlarkThread("test");
    thread.setPrintHandler((t, msg) -> err.println(msg));
    Map<String, Value> predeclared = new HashMap<>(TestLibraries.predeclared(env));
    Map<String, Map<String, Value>> cache = new HashMap<>();
    thread.setLoadHandler(
        (t, module) -> {
          Map<String, Value> m = cache.get(module);
          if (m == null) {
            m =
                switch (module) {
                  case "assert.star" -> asserts.load(t);
                  case "json.star" -> Map.of("json", predeclared.get("json"));
                  case "math.star" -> Map.of("math", predeclared.get("math"));
                  case "time.star" -> {
                    Value time = TestLibraries.time();
                    if (time == null) {
                      throw new EvalException("no such module");
                    }
                    yield Map.of("time", time);
                  }
                  default -> throw new EvalException("no such module");
                };
            cache.put(module, m);
          }
          return m;
        });
    try {
      if (env.stripLoads()) {
        Map<String, Value> a = asserts.load(thread);
        cache.put("assert.star", a);
        predeclared.put("assert", a.get("assert"));
        predeclared.put("freeze", a.get("freeze"));
      }
      Dialect dialect = env.dialect();
      Program prog = Starlark.compile(file, src, dialect, predeclared.keySet());
      prog.init(thread, predeclared);
    } catch (SyntaxError e) {
      return TestMode.syntaxFailure(e, err);
    } catch (EvalError e) {
      err.println(innermostIn(e.backtrace(), file) + ": " + e.getMessage());
      err.println(e.traceback());
      return 1;
    } catch (EvalException e) {
      err.println(file + ":1:1: " + e.getMessage());
      return 1;
    }
    return asserts.failed() ? 1 : 0;
  }

  /** The position of the innermost frame located in {@code file}, else of the innermost frame. */
  static Position innermostIn(List<EvalError.StackEntry> stack, String file) {
    for (int i = stack.size() - 1; i >= 0; i--) {
      Position p = stack.get(i).pos();
      if (p != null && file.equals(p.file())) {
        return p;
      }
    }
    return stack.isEmpty() ? new Position(file, 1, 1) : stack.get(stack.size() - 1).pos();
  }
}
