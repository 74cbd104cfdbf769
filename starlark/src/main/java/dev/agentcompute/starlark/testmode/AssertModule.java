package dev.agentcompute.starlark.testmode;

import dev.agentcompute.starlark.Dialect;
import dev.agentcompute.starlark.Starlark;
import dev.agentcompute.starlark.eval.Args;
import dev.agentcompute.starlark.eval.Bool;
import dev.agentcompute.starlark.eval.Builtin;
import dev.agentcompute.starlark.eval.EvalError;
import dev.agentcompute.starlark.eval.EvalException;
import dev.agentcompute.starlark.eval.Interpreter;
import dev.agentcompute.starlark.eval.Module;
import dev.agentcompute.starlark.eval.NoneValue;
import dev.agentcompute.starlark.eval.StarlarkFloat;
import dev.agentcompute.starlark.eval.StarlarkString;
import dev.agentcompute.starlark.eval.StarlarkThread;
import dev.agentcompute.starlark.eval.Value;
import dev.agentcompute.starlark.syntax.SyntaxError;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The {@code assert} module of starlark-go's test suite: {@code assert.star} (embedded verbatim)
 * executed with the six native helpers error, catch, matches, module, _freeze and _floateq. {@code
 * error} reports a failure without halting; the harness exits non-zero at the end.
 */
final class AssertModule {
  private final String testFile;
  private final PrintStream err;
  private boolean failed;

  AssertModule(String testFile, PrintStream err) {
    this.testFile = testFile;
    this.err = err;
  }

  boolean failed() {
    return failed;
  }

  /** Runs assert.star and returns its globals (assert, freeze, and the private helpers). */
  Map<String, Value> load(StarlarkThread thread) throws EvalException {
    String src;
    try (InputStream in = AssertModule.class.getResourceAsStream("assert.star")) {
      src = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException | NullPointerException e) {
      throw new EvalException("assert.star resource missing");
    }
    Map<String, Value> helpers = helpers();
    try {
      var prog = Starlark.compile("assert.star", src, Dialect.CODEMODE, helpers.keySet());
      Module m = prog.init(thread, helpers);
      return m.members();
    } catch (SyntaxError e) {
      throw new EvalException("assert.star: " + e.getMessage());
    }
  }

  Map<String, Value> helpers() {
    Map<String, Value> m = new LinkedHashMap<>();
    m.put(
        "error",
        new Builtin(
            "error",
            (thread, fn, args, named) -> {
              Value[] a = Args.positional("error", args, named, 1, 1);
              reportError(thread, a[0] instanceof StarlarkString s ? s.value() : a[0].toString());
              return NoneValue.NONE;
            }));
    m.put(
        "catch",
        new Builtin(
            "catch",
            (thread, fn, args, named) -> {
              Value[] a = Args.positional("catch", args, named, 1, 1);
              try {
                Interpreter.call(thread, a[0], new Value[0], List.of());
                return NoneValue.NONE;
              } catch (EvalError e) {
                if (e.budget() != null) {
                  throw e;
                }
                return StarlarkString.of(e.getMessage());
              }
            }));
    m.put(
        "matches",
        new Builtin(
            "matches",
            (thread, fn, args, named) -> {
              Value[] a = Args.positional("matches", args, named, 2, 2);
              if (!(a[0] instanceof StarlarkString p) || !(a[1] instanceof StarlarkString s)) {
                throw new EvalException("matches: want (string, string)");
              }
              try {
                return Bool.of(Pattern.compile(fromRe2(p.value())).matcher(s.value()).find());
              } catch (PatternSyntaxException e) {
                throw new EvalException("matches: " + e.getDescription());
              }
            }));
    m.put(
        "module",
        new Builtin(
            "module",
            (thread, fn, args, named) -> {
              if (args.length != 1 || !(args[0] instanceof StarlarkString name)) {
                throw new EvalException("module: got " + args.length + " arguments, want 1");
              }
              Map<String, Value> members = new LinkedHashMap<>();
              for (Map.Entry<String, Value> e : named) {
                members.put(e.getKey(), e.getValue());
              }
              Module mod = new Module(name.value(), members);
              mod.freeze();
              return mod;
            }));
    m.put(
        "_freeze",
        new Builtin(
            "freeze",
            (thread, fn, args, named) -> {
              if (!named.isEmpty()) {
                throw new EvalException("freeze: unexpected keyword arguments");
              }
              Value[] a = Args.positional("freeze", args, named, 1, 1);
              a[0].freeze();
              return a[0];
            }));
    m.put(
        "_floateq",
        new Builtin(
            "floateq",
            (thread, fn, args, named) -> {
              Value[] a = Args.positional("floateq", args, named, 2, 2);
              if (!(a[0] instanceof StarlarkFloat x) || !(a[1] instanceof StarlarkFloat y)) {
                throw new EvalException("floateq: want two floats");
              }
              double dx = x.value();
              double dy = y.value();
              if (dx == dy || (Double.isNaN(dx) && Double.isNaN(dy))) {
                return Bool.TRUE;
              }
              return Bool.of(
                  Math.abs(Double.doubleToLongBits(dx) - Double.doubleToLongBits(dy)) <= 1);
            }));
    return m;
  }

  /** Prints "FILE:LINE:COL: msg" at the innermost call in the test file, then continues. */
  void reportError(StarlarkThread thread, String msg) {
    failed = true;
    List<EvalError.StackEntry> stack = Interpreter.callStack(thread);
    err.println(TestExec.innermostIn(stack, testFile) + ": " + msg);
  }

  /**
   * Adapts RE2 syntax to java.util.regex: RE2 reads a '{' that does not start a repetition ({n},
   * {n,}, {n,m}) literally, Java rejects it; {@code \\z} is the same in both.
   */
  static String fromRe2(String re) {
    StringBuilder sb = new StringBuilder(re.length() + 8);
    for (int i = 0; i < re.length(); i++) {
      char c = re.charAt(i);
      if (c == '\\' && i + 1 < re.length()) {
        sb.append(c).append(re.charAt(++i));
      } else if (c == '{' && !re.substring(i).matches("(?s)\\{\\d+(,\\d*)?\\}.*")) {
        sb.append("\\{");
      } else if (c == '}' && !closesRepetition(re, i)) {
        sb.append("\\}");
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  private static boolean closesRepetition(String re, int i) {
    int j = re.lastIndexOf('{', i);
    return j >= 0 && re.substring(j, i + 1).matches("\\{\\d+(,\\d*)?\\}");
  }
}
