package dev.agentcompute.codemode.worker;

import dev.agentcompute.codemode.binding.GoQuote;
import dev.agentcompute.codemode.protocol.Frame;
import dev.agentcompute.starlark.eval.AllocationLimitException;
import dev.agentcompute.starlark.eval.BudgetException;
import dev.agentcompute.starlark.eval.Dict;
import dev.agentcompute.starlark.eval.EvalError;
import dev.agentcompute.starlark.eval.Module;
import dev.agentcompute.starlark.eval.NoSuchAttributeException;
import dev.agentcompute.starlark.eval.NoSuchKeyException;
import dev.agentcompute.starlark.eval.StarlarkString;
import dev.agentcompute.starlark.eval.StepLimitException;
import dev.agentcompute.starlark.eval.Value;
import dev.agentcompute.starlark.resolve.Spell;
import dev.agentcompute.starlark.syntax.Position;
import dev.agentcompute.starlark.syntax.SyntaxError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The texts that tell an agent what to fix in its program (agent guidance): the position as {@code
 * line:col} and what was wrong, in words that name the fix. Built for every failure; the worker
 * sends them only when the exec asks. Messages quote only the program's own names and keys.
 */
final class Explainer {

  /** Words agents reach for, mapped to the capability verb that does it. */
  private static final Map<String, String> SYNONYMS =
      Map.ofEntries(
          Map.entry("run", "exec"),
          Map.entry("execute", "exec"),
          Map.entry("shell", "exec"),
          Map.entry("command", "exec"),
          Map.entry("cmd", "exec"),
          Map.entry("remove", "delete"),
          Map.entry("rm", "delete"),
          Map.entry("destroy", "delete"),
          Map.entry("kill", "delete"),
          Map.entry("new", "create"),
          Map.entry("launch", "create"),
          Map.entry("make", "create"),
          Map.entry("add", "create"),
          Map.entry("ls", "list"),
          Map.entry("show", "get"),
          Map.entry("info", "get"),
          Map.entry("status", "get"),
          Map.entry("inspect", "get"),
          Map.entry("renew", "extend"),
          Map.entry("prolong", "extend"),
          Map.entry("upload", "write"),
          Map.entry("put", "write"),
          Map.entry("download", "read"),
          Map.entry("cat", "read"),
          Map.entry("reboot", "restart"),
          Map.entry("halt", "stop"),
          Map.entry("boot", "start"));

  private static final int MAX_KEYS_LISTED = 12;

  private final String source;
  private final Frame.ExecLimits limits;

  Explainer(String source, Frame.ExecLimits limits) {
    this.source = source;
    this.limits = limits;
  }

  /** A syntax or resolve error: unsupported syntax named for what it is. */
  String syntax(SyntaxError e) {
    if (e.errors().isEmpty()) {
      return "the program does not parse";
    }
    SyntaxError.Item first = e.errors().getFirst();
    String at = at(first.pos());
    String word = wordAt(first.pos());
    if (word.equals("import") || word.equals("from")) {
      return at
          + "import is not available: json.* and math.* are builtins, use them without import;"
          + " capabilities are called by name (search_api finds them)";
    }
    if (isFString(first.pos())) {
      Position f = new Position(first.pos().file(), first.pos().line(), first.pos().col() - 1);
      return at(f) + "f-strings are not available: use \"%s\" % x or \"{}\".format(x)";
    }
    if (word.equals("while")) {
      return at + "while is not available: use for i in range(n): with a bound";
    }
    if (word.equals("load")) {
      return at + "load is not available: everything is predeclared";
    }
    if (word.equals("class")) {
      return at + "class is not available: use dicts and functions";
    }
    if (word.equals("try") || word.equals("except")) {
      return at
          + "try/except is not available: a failing call ends the program; check values before"
          + " using them";
    }
    return at + first.msg();
  }

  /** No callable main at module level. */
  static String mainMissing() {
    return "main is missing: define def main(): with no parameters and put the calls inside it";
  }

  /** main takes parameters. */
  static String mainHasParameters() {
    return "main must take no parameters: define def main(): (nothing is passed to it)";
  }

  /** A capability ran while the module initialised instead of inside main. */
  String outsideMain(String capability, Position pos) {
    return at(pos)
        + capability
        + " called outside main: capabilities run only inside def main():; move the call there";
  }

  /** A runtime error: position plus a message that names the fix. */
  String runtime(EvalError e) {
    String at = at(e.position());
    Throwable cause = e.getCause();
    if (cause instanceof NoSuchAttributeException a) {
      return at + attribute(a.receiver(), a.name());
    }
    if (cause instanceof NoSuchKeyException k && k.mapping() instanceof Dict d) {
      return at + missingKey(d, k.key());
    }
    String message = e.getMessage();
    if (message.endsWith("division by zero") || message.endsWith("modulo by zero")) {
      return at + message + ": check the divisor before dividing";
    }
    return at + message;
  }

  /** A budget ran out: which limit, its value, and where. */
  String budget(EvalError e, BudgetException b) {
    String at = " at line " + e.position().line();
    if (b instanceof StepLimitException) {
      return "execution step limit ("
          + limits.maxExecutionSteps()
          + " steps) exceeded"
          + at
          + ": a loop runs too long; loop fewer times";
    }
    if (b instanceof AllocationLimitException) {
      return "memory limit exceeded" + at + ": the program builds values that are too large";
    }
    return b.getMessage() + at;
  }

  String nativeCallLimit(Position pos) {
    return "native call limit ("
        + limits.maxNativeCalls()
        + " calls per execution) exceeded at line "
        + pos.line()
        + ": make fewer capability calls, or split the work over several executions";
  }

  String argumentLimit(String capability, Position pos) {
    return "argument size limit ("
        + limits.maxValueBytes()
        + " bytes, depth "
        + limits.maxValueDepth()
        + ") exceeded by "
        + capability
        + " at line "
        + pos.line();
  }

  static String resultLimit(long maxDepth, long maxBytes) {
    return "result size limit ("
        + maxBytes
        + " bytes, depth "
        + maxDepth
        + ") exceeded by main's return value: return fewer or smaller fields";
  }

  static String sourceLimit(Frame.ExecLimits limits, long bytes) {
    return "source size limit ("
        + limits.maxSourceBytes()
        + " bytes) exceeded: the program is "
        + bytes
        + " bytes";
  }

  static String stackOverflow() {
    return "recursion limit exceeded: a function calls itself too deeply";
  }

  static String badResult(String type) {
    return "main returned a "
        + type
        + ", which cannot be a result: return None, a bool, int, float, string, list or dict"
        + " with string keys";
  }

  /** A binding failure of a capability's arguments, at the call. */
  String arguments(String capability, Position pos, String detail) {
    return at(pos) + capability + ": " + detail + " (describe_api lists its parameters)";
  }

  private static String attribute(Value receiver, String name) {
    if (receiver instanceof Module m) {
      String suggestion = suggest(name, m.attrNames());
      StringBuilder b =
          new StringBuilder(m.name()).append(" has no attribute ").append(GoQuote.quote(name));
      if (suggestion != null) {
        b.append(" (did you mean ").append(m.name()).append('.').append(suggestion).append("?)");
      } else {
        b.append(" (").append(m.name()).append(" has: ");
        b.append(String.join(", ", m.attrNames())).append(')');
      }
      return b.toString();
    }
    if (receiver instanceof Dict) {
      return "dict has no attribute "
          + GoQuote.quote(name)
          + ": results are dicts, read a field with r["
          + GoQuote.quote(name)
          + "]";
    }
    return receiver.type() + " has no attribute " + GoQuote.quote(name);
  }

  private static String suggest(String name, List<String> names) {
    String mapped = SYNONYMS.get(name);
    if (mapped != null && names.contains(mapped)) {
      return mapped;
    }
    return Spell.nearest(name, names);
  }

  private static String missingKey(Dict d, Value key) {
    List<String> keys = new ArrayList<>();
    for (Value k : d.keys()) {
      if (keys.size() == MAX_KEYS_LISTED) {
        keys.add("...");
        break;
      }
      keys.add(k instanceof StarlarkString s ? s.value() : k.toString());
    }
    String shown = key instanceof StarlarkString s ? GoQuote.quote(s.value()) : key.toString();
    return "key "
        + shown
        + " not in dict (keys: "
        + (keys.isEmpty() ? "none" : String.join(", ", keys))
        + ")";
  }

  private static String at(Position pos) {
    return pos.isValid() ? pos.line() + ":" + pos.col() + ": " : "";
  }

  /** The identifier-like word starting at {@code pos} in the source. */
  private String wordAt(Position pos) {
    String rest = restAt(pos);
    int i = 0;
    while (i < rest.length() && Character.isJavaIdentifierPart(rest.charAt(i))) {
      i++;
    }
    return rest.substring(0, i);
  }

  /** A string literal right after a lone {@code f}: the parser stops at the literal. */
  private boolean isFString(Position pos) {
    if (!pos.isValid() || pos.col() < 2) {
      return false;
    }
    String rest = restAt(pos);
    String before = restAt(new Position(pos.file(), pos.line(), pos.col() - 1));
    boolean lone =
        pos.col() < 3
            || !Character.isJavaIdentifierPart(
                restAt(new Position(pos.file(), pos.line(), pos.col() - 2)).charAt(0));
    return before.startsWith("f") && lone && (rest.startsWith("\"") || rest.startsWith("'"));
  }

  private String restAt(Position pos) {
    if (!pos.isValid()) {
      return "";
    }
    String[] lines = source.split("\n", -1);
    if (pos.line() < 1 || pos.line() > lines.length) {
      return "";
    }
    String line = lines[pos.line() - 1];
    // Columns count from 1 in code points; programs here are overwhelmingly ASCII.
    int col = Math.max(0, pos.col() - 1);
    return col <= line.length() ? line.substring(col) : "";
  }
}
