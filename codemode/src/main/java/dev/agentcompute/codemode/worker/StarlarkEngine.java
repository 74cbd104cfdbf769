package dev.agentcompute.codemode.worker;

import dev.agentcompute.codemode.protocol.Frame;
import dev.agentcompute.codemode.protocol.Manifest;
import dev.agentcompute.codemode.protocol.Values;
import dev.agentcompute.starlark.Dialect;
import dev.agentcompute.starlark.Starlark;
import dev.agentcompute.starlark.eval.Bool;
import dev.agentcompute.starlark.eval.Builtin;
import dev.agentcompute.starlark.eval.Dict;
import dev.agentcompute.starlark.eval.EvalError;
import dev.agentcompute.starlark.eval.EvalException;
import dev.agentcompute.starlark.eval.Interpreter;
import dev.agentcompute.starlark.eval.Module;
import dev.agentcompute.starlark.eval.NoneValue;
import dev.agentcompute.starlark.eval.StarlarkFloat;
import dev.agentcompute.starlark.eval.StarlarkFunction;
import dev.agentcompute.starlark.eval.StarlarkInt;
import dev.agentcompute.starlark.eval.StarlarkList;
import dev.agentcompute.starlark.eval.StarlarkString;
import dev.agentcompute.starlark.eval.StarlarkThread;
import dev.agentcompute.starlark.eval.Tuple;
import dev.agentcompute.starlark.eval.Value;
import dev.agentcompute.starlark.lib.Json;
import dev.agentcompute.starlark.lib.MathModule;
import dev.agentcompute.starlark.syntax.Position;
import dev.agentcompute.starlark.syntax.SyntaxError;
import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Runs a program under the CodeMode dialect: a fresh thread and module per run, capability
 * namespaces as frozen modules of builtins that bind keyword arguments and forward them to the
 * host, main() checks and phases, and conversion of main's value.
 */
final class StarlarkEngine implements Engine {

  static final String FILENAME = "<codemode>";

  /** Why a run ended early, recorded by builtins before they unwind the interpreter. */
  private static final class Run {
    boolean running;
    long attempts;
    Failure failure;
    Explainer explainer;
    boolean aborted;
    IOException ioFailure;
  }

  @Override
  public Object run(
      String source, Frame.ExecLimits limits, List<Manifest.Item> manifest, Bridge bridge)
      throws Failure, Aborted, IOException {
    Run run = new Run();
    run.explainer = new Explainer(source, limits);
    Map<String, Value> predeclared = namespaces(manifest, limits, bridge, run);
    StarlarkThread thread = new StarlarkThread("codemode");
    thread.setMaxSteps(limits.maxExecutionSteps());
    // Leave headroom under the heap ceiling so large allocations end as a budget error, not an OOM.
    thread.setMaxAllocBytes(Runtime.getRuntime().maxMemory() / 2);
    thread.setPrintHandler((t, msg) -> {});
    dev.agentcompute.starlark.eval.Program program;
    try {
      program = Starlark.compile(FILENAME, source, Dialect.CODEMODE, predeclared.keySet());
    } catch (SyntaxError e) {
      throw new Failure("invalid_program", syntaxDetail(e), run.explainer.syntax(e));
    }
    Value result;
    try {
      Module module = program.init(thread, predeclared);
      Value main = module.global("main");
      if (!(main instanceof StarlarkFunction fn)) {
        throw new Failure("invalid_program", null, Explainer.mainMissing());
      }
      if (fn.numParams() != 0 || fn.numKwonlyParams() != 0 || fn.hasVarargs() || fn.hasKwargs()) {
        throw new Failure("invalid_program", null, Explainer.mainHasParameters());
      }
      run.running = true;
      result = Starlark.call(thread, fn, List.of(), Map.of());
      run.running = false;
    } catch (EvalError e) {
      throw classify(run, e);
    } catch (RuntimeException e) {
      if (run.aborted) {
        throw new Aborted();
      }
      throw new Failure("internal", null, null);
    }
    return new FinalConverter(limits.maxValueDepth(), limits.maxValueBytes()).convert(result, 1);
  }

  private static Failure classify(Run run, EvalError e) throws Aborted, IOException {
    if (run.aborted) {
      throw new Aborted();
    }
    if (run.ioFailure != null) {
      throw run.ioFailure;
    }
    if (run.failure != null) {
      return run.failure;
    }
    if (e.budget() != null) {
      return new Failure("resource_limit", null, run.explainer.budget(e, e.budget()));
    }
    if (e.getMessage().equals("Starlark stack overflow")) {
      return new Failure("invalid_program", null, Explainer.stackOverflow());
    }
    return new Failure("invalid_program", null, run.explainer.runtime(e));
  }

  private static String syntaxDetail(SyntaxError e) {
    if (e.errors().isEmpty()) {
      return null;
    }
    SyntaxError.Item first = e.errors().getFirst();
    if (first.msg().startsWith("internal error:")) {
      return null;
    }
    return first.toString();
  }

  private static Map<String, Value> namespaces(
      List<Manifest.Item> manifest, Frame.ExecLimits limits, Bridge bridge, Run run) {
    Map<String, Object> tree = new TreeMap<>();
    for (Manifest.Item item : manifest) {
      String[] segs = item.name().split("\\.");
      Map<String, Object> node = tree;
      for (int i = 0; i < segs.length - 1; i++) {
        @SuppressWarnings("unchecked")
        Map<String, Object> next =
            (Map<String, Object>) node.computeIfAbsent(segs[i], k -> new TreeMap<>());
        node = next;
      }
      node.put(segs[segs.length - 1], builtin(item, limits, bridge, run));
    }
    Map<String, Value> out = new LinkedHashMap<>();
    out.put("sum", SumBuiltin.builtin());
    out.put("json", Json.codeModeModule());
    out.put("math", MathModule.module());
    for (Map.Entry<String, Object> e : tree.entrySet()) {
      out.put(e.getKey(), toModule(e.getKey(), e.getValue()));
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static Value toModule(String name, Object node) {
    if (node instanceof Value v) {
      return v;
    }
    Map<String, Value> members = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : ((Map<String, Object>) node).entrySet()) {
      members.put(e.getKey(), toModule(name + "." + e.getKey(), e.getValue()));
    }
    Module m = new Module(name, members);
    m.freeze();
    return m;
  }

  private static Builtin builtin(
      Manifest.Item item, Frame.ExecLimits limits, Bridge bridge, Run run) {
    return new Builtin(
        item.name(),
        (thread, self, positional, named) -> {
          if (!run.running) {
            run.failure =
                new Failure(
                    "invalid_program", null, run.explainer.outsideMain(item.name(), at(thread)));
            throw new EvalException("capability called outside main");
          }
          if (++run.attempts > limits.maxNativeCalls()) {
            run.failure =
                new Failure("resource_limit", null, run.explainer.nativeCallLimit(at(thread)));
            throw new EvalException("native call limit");
          }
          Map<String, Object> args;
          try {
            if (positional.length > 0) {
              throw new ArgumentBinder.BindError("positional arguments are not accepted");
            }
            args =
                new ArgumentBinder(limits.maxValueDepth(), limits.maxValueBytes())
                    .bindKeywords(item.input(), named);
            if (Values.size(Values.encode(args)) > limits.maxValueBytes()) {
              throw new ArgumentBinder.LimitError();
            }
          } catch (ArgumentBinder.BindError b) {
            run.failure =
                new Failure(
                    "invalid_arguments",
                    b.getMessage(),
                    run.explainer.arguments(item.name(), at(thread), b.getMessage()));
            throw new EvalException("invalid arguments");
          } catch (ArgumentBinder.LimitError | Values.InvalidValue l) {
            run.failure =
                new Failure(
                    "resource_limit", null, run.explainer.argumentLimit(item.name(), at(thread)));
            throw new EvalException("argument limits");
          }
          Object result;
          try {
            result = bridge.call(item.id(), args);
          } catch (Aborted a) {
            run.aborted = true;
            throw new EvalException("aborted");
          } catch (IOException io) {
            run.ioFailure = io;
            throw new EvalException("host connection failed");
          }
          return toStarlark(result);
        });
  }

  /** Where the program is now: the innermost Starlark frame (a builtin's caller). */
  private static Position at(StarlarkThread thread) {
    List<EvalError.StackEntry> stack = Interpreter.callStack(thread);
    for (int i = stack.size() - 1; i >= 0; i--) {
      if (!stack.get(i).isBuiltin()) {
        return stack.get(i).pos();
      }
    }
    return Position.UNKNOWN;
  }

  /** Host result to fresh mutable Starlark values; dict keys inserted in sorted order. */
  static Value toStarlark(Object v) throws EvalException {
    // instanceof, not a pattern switch: the worker path generates no classes at start
    // (WorkerPathTest).
    if (v == null) {
      return NoneValue.NONE;
    } else if (v instanceof Boolean b) {
      return Bool.of(b);
    } else if (v instanceof Long l) {
      return StarlarkInt.of(l);
    } else if (v instanceof Double d) {
      return StarlarkFloat.of(d);
    } else if (v instanceof String s) {
      return StarlarkString.of(s);
    } else if (v instanceof List<?> l) {
      List<Value> out = new ArrayList<>(l.size());
      for (Object o : l) {
        out.add(toStarlark(o));
      }
      return StarlarkList.copyOf(out);
    } else if (v instanceof Map<?, ?> m) {
      Dict d = new Dict();
      TreeMap<String, Object> sorted = new TreeMap<>(Values::compareUtf8);
      for (Map.Entry<?, ?> e : m.entrySet()) {
        sorted.put((String) e.getKey(), e.getValue());
      }
      for (Map.Entry<String, Object> e : sorted.entrySet()) {
        d.put(StarlarkString.of(e.getKey()), toStarlark(e.getValue()));
      }
      return d;
    }
    throw new EvalException("unsupported host value");
  }

  /** main's value to the process-neutral domain: depth, node budget, supported types only. */
  private static final class FinalConverter {
    private final long maxDepth;
    private final long maxBytes;
    private long nodes;
    private final Set<Object> path = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

    FinalConverter(long maxDepth, long nodeBudget) {
      this.maxDepth = maxDepth;
      this.maxBytes = nodeBudget;
      this.nodes = nodeBudget;
    }

    Object convert(Value v, long depth) throws Failure {
      if (depth > maxDepth) {
        throw new Failure("resource_limit", null, Explainer.resultLimit(maxDepth, maxBytes));
      }
      if (--nodes < 0) {
        throw new Failure("resource_limit", null, Explainer.resultLimit(maxDepth, maxBytes));
      }
      // instanceof, not a pattern switch: the worker path generates no classes at start
      // (WorkerPathTest).
      if (v instanceof NoneValue n) {
        return null;
      } else if (v instanceof Bool b) {
        return b.truth();
      } else if (v instanceof StarlarkInt i) {
        if (!i.isLong()) {
          throw new Failure("invalid_program", null, Explainer.badResult("int over 64 bits"));
        }
        return i.longValue();
      } else if (v instanceof StarlarkFloat f) {
        double d = f.value();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
          throw new Failure("invalid_program", null, Explainer.badResult("non-finite float"));
        }
        return d;
      } else if (v instanceof StarlarkString s) {
        return s.value();
      } else if (v instanceof StarlarkList l) {
        return sequence(v, l.elements(), depth);
      } else if (v instanceof Tuple t) {
        return sequence(v, t.elements(), depth);
      } else if (v instanceof Dict d) {
        if (!path.add(v)) {
          throw new Failure(
              "invalid_program", null, Explainer.badResult("value that contains itself"));
        }
        charge(d.len());
        TreeMap<String, Object> out = new TreeMap<>(Values::compareUtf8);
        for (Map.Entry<Value, Value> e : d.entries()) {
          if (!(e.getKey() instanceof StarlarkString k)) {
            throw new Failure(
                "invalid_program", null, Explainer.badResult("dict with a non-string key"));
          }
          out.put(k.value(), convert(e.getValue(), depth + 1));
        }
        path.remove(v);
        return out;
      } else {
        throw new Failure("invalid_program", null, Explainer.badResult(v.type()));
      }
    }

    private Object sequence(Value self, List<Value> elems, long depth) throws Failure {
      if (!path.add(self)) {
        throw new Failure(
            "invalid_program", null, Explainer.badResult("value that contains itself"));
      }
      charge(elems.size());
      List<Object> out = new ArrayList<>(elems.size());
      for (Value e : elems) {
        out.add(convert(e, depth + 1));
      }
      path.remove(self);
      return out;
    }

    private void charge(long n) throws Failure {
      if (n > nodes) {
        throw new Failure("resource_limit", null, Explainer.resultLimit(maxDepth, maxBytes));
      }
    }
  }
}
