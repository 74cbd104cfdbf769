package dev.agentcompute.starlark.fuzz;

import dev.agentcompute.starlark.Dialect;
import dev.agentcompute.starlark.Starlark;
import dev.agentcompute.starlark.eval.EvalError;
import dev.agentcompute.starlark.eval.EvalException;
import dev.agentcompute.starlark.eval.Module;
import dev.agentcompute.starlark.eval.NoneValue;
import dev.agentcompute.starlark.eval.Program;
import dev.agentcompute.starlark.eval.StarlarkFunction;
import dev.agentcompute.starlark.eval.StarlarkThread;
import dev.agentcompute.starlark.eval.Universe;
import dev.agentcompute.starlark.eval.Value;
import dev.agentcompute.starlark.lib.Json;
import dev.agentcompute.starlark.lib.MathModule;
import dev.agentcompute.starlark.syntax.SyntaxError;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one program as CodeMode does (compile, run the module, call {@code main}, print its value)
 * under step and allocation budgets, and says how it ended. Ending in a value, a syntax error, a
 * Starlark error or a budget error is fine; anything else is a defect: another Java exception
 * (StackOverflowError and OutOfMemoryError included), an error without a position, or a call stack
 * left behind.
 */
final class FuzzTarget {
  /** How a run ended: {@code kind} is value, syntax, error, budget or defect. */
  record Outcome(String kind, String detail, Throwable cause) {
    boolean isDefect() {
      return kind.equals("defect");
    }

    /** The outcome with numbers and quoted text folded, for counting distinct outcomes. */
    String signature() {
      String d = detail.replaceAll("\"[^\"]*\"", "S").replaceAll("'[^']*'", "S");
      d = d.replaceAll("\\d+", "N").replaceAll("\\s+", " "); // one line of the outcome counts
      return kind + ":" + (d.length() > 80 ? d.substring(0, 80) : d);
    }
  }

  private final long maxSteps;
  private final long maxAllocBytes;

  FuzzTarget(long maxSteps, long maxAllocBytes) {
    this.maxSteps = maxSteps;
    this.maxAllocBytes = maxAllocBytes;
  }

  /** Runs {@code src}; {@code thread} is the caller's, so that a watchdog can cancel it. */
  Outcome run(String src, Dialect dialect, StarlarkThread thread) {
    thread.setMaxSteps(maxSteps);
    thread.setMaxAllocBytes(maxAllocBytes);
    thread.setPrintHandler((t, msg) -> {});
    Map<String, Value> predeclared = predeclared();
    thread.setLoadHandler((t, module) -> load(module, predeclared));
    try {
      Program prog = Starlark.compile("fuzz.star", src, dialect, predeclared.keySet());
      Module m = prog.init(thread, predeclared);
      Value result = NoneValue.NONE;
      if (m.global("main") instanceof StarlarkFunction main) {
        result = Starlark.call(thread, main, List.of(), Map.of());
      }
      // printed as CodeMode's caller would see it (bounded by the same budgets)
      Starlark.call(thread, Universe.get("repr", false), List.of(result), Map.of());
      return unwound(thread, new Outcome("value", result.type(), null));
    } catch (SyntaxError e) {
      for (SyntaxError.Item item : e.errors()) {
        if (!item.pos().isValid()) {
          return new Outcome("defect", "syntax error without a position: " + item, e);
        }
      }
      return unwound(thread, new Outcome("syntax", e.errors().getFirst().msg(), null));
    } catch (EvalError e) {
      if (e.budget() != null) {
        return unwound(thread, new Outcome("budget", e.budget().getClass().getSimpleName(), null));
      }
      if (!e.backtrace().isEmpty() && !e.position().isValid()) {
        return new Outcome("defect", "error without a position: " + e.getMessage(), e);
      }
      return unwound(thread, new Outcome("error", e.getMessage(), null));
    } catch (Throwable e) {
      return new Outcome("defect", e.getClass().getName() + ": " + e.getMessage(), e);
    }
  }

  private static Outcome unwound(StarlarkThread thread, Outcome o) {
    if (thread.depth() != 0) {
      return new Outcome("defect", "call stack not unwound (" + thread.depth() + " frames)", null);
    }
    return o;
  }

  private static Map<String, Value> predeclared() {
    Map<String, Value> m = new HashMap<>();
    m.put("json", Json.codeModeModule());
    m.put("math", MathModule.module());
    return m;
  }

  /** The loads of the conformance corpus: assert.star (a lenient assert), json.star, math.star. */
  private static Map<String, Value> load(String module, Map<String, Value> predeclared)
      throws EvalException {
    return switch (module) {
      case "assert.star" -> Map.of("assert", FuzzAssert.module(), "freeze", FuzzAssert.freeze());
      case "json.star" -> Map.of("json", predeclared.get("json"));
      case "math.star" -> Map.of("math", predeclared.get("math"));
      default -> throw new EvalException("no such module");
    };
  }
}
