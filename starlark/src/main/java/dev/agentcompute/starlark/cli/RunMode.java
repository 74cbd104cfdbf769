package dev.agentcompute.starlark.cli;

import dev.agentcompute.starlark.Dialect;
import dev.agentcompute.starlark.Starlark;
import dev.agentcompute.starlark.eval.EvalError;
import dev.agentcompute.starlark.eval.Module;
import dev.agentcompute.starlark.eval.Program;
import dev.agentcompute.starlark.eval.StarlarkFunction;
import dev.agentcompute.starlark.eval.StarlarkString;
import dev.agentcompute.starlark.eval.StarlarkThread;
import dev.agentcompute.starlark.eval.Universe;
import dev.agentcompute.starlark.eval.Value;
import dev.agentcompute.starlark.lib.Json;
import dev.agentcompute.starlark.lib.MathModule;
import dev.agentcompute.starlark.syntax.SyntaxError;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code starlark FILE}: runs FILE under the CodeMode dialect (top level, globals frozen), then
 * calls its {@code main()} and prints the repr of the result. print() output goes to stderr.
 */
final class RunMode {
  private RunMode() {}

  /** print() to a stream; a class, not a lambda, so a one-shot start spins no lambda class. */
  private static final class ToStream implements StarlarkThread.PrintHandler {
    private final PrintStream err;

    ToStream(PrintStream err) {
      this.err = err;
    }

    @Override
    public void print(StarlarkThread thread, String message) {
      err.println(message);
    }
  }

  static int run(String file, String src, PrintStream out, PrintStream err) {
    StarlarkThread thread = new StarlarkThread("main");
    thread.setPrintHandler(new ToStream(err));
    Map<String, Value> predeclared = new HashMap<>(); // CodeMode's libraries (sum is codemode's)
    predeclared.put("json", Json.codeModeModule());
    predeclared.put("math", MathModule.module());
    try {
      Program prog = Starlark.compile(file, src, Dialect.CODEMODE, predeclared.keySet());
      Module module = prog.init(thread, predeclared);
      Value main = module.global("main");
      if (!(main instanceof StarlarkFunction fn)) {
        err.println(file + ": no function main() defined");
        return 1;
      }
      Value result = Starlark.call(thread, fn, List.of(), Map.of());
      // printed as the repr builtin prints (a thread-less repr is cut at 1 MiB)
      Value printed = Starlark.call(thread, Universe.get("repr", false), List.of(result), Map.of());
      out.println(((StarlarkString) printed).value());
      return 0;
    } catch (SyntaxError e) {
      for (SyntaxError.Item item : e.errors()) {
        err.println(item);
      }
      return 1;
    } catch (EvalError e) {
      err.println(e.position() + ": " + e.getMessage());
      err.println(e.traceback());
      return 1;
    }
  }
}
