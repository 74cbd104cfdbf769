package dev.agentcompute.codemode.worker;

import dev.agentcompute.codemode.binding.GoQuote;
import dev.agentcompute.codemode.binding.Names;
import dev.agentcompute.codemode.binding.TypeNode;
import dev.agentcompute.starlark.eval.Bool;
import dev.agentcompute.starlark.eval.Dict;
import dev.agentcompute.starlark.eval.NoneValue;
import dev.agentcompute.starlark.eval.StarlarkFloat;
import dev.agentcompute.starlark.eval.StarlarkInt;
import dev.agentcompute.starlark.eval.StarlarkList;
import dev.agentcompute.starlark.eval.StarlarkString;
import dev.agentcompute.starlark.eval.Tuple;
import dev.agentcompute.starlark.eval.Value;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Worker side of argument binding: exact keyword arguments against the registered input shape,
 * producing the canonical map, with model-facing diagnostics ({@code unknown argument "keu"},
 * {@code argument "tags[1]" must be a string}) and value bounds.
 */
final class ArgumentBinder {

  /** A binding diagnostic, shown to the model after {@code invalid capability arguments: }. */
  static final class BindError extends Exception {
    BindError(String message) {
      super(message, null, false, false);
    }
  }

  /** Depth or node budget exceeded. */
  static final class LimitError extends Exception {
    LimitError() {
      super("argument limits", null, false, false);
    }
  }

  private final long maxDepth;
  private long nodes;

  ArgumentBinder(long maxDepth, long nodeBudget) {
    this.maxDepth = maxDepth;
    this.nodes = nodeBudget;
  }

  Map<String, Object> bindKeywords(TypeNode.Struct input, List<Map.Entry<String, Value>> named)
      throws BindError, LimitError {
    List<Map.Entry<Object, Value>> entries = new ArrayList<>();
    for (Map.Entry<String, Value> e : named) {
      entries.add(Map.entry(e.getKey(), e.getValue()));
    }
    return struct(input, entries, "", 1);
  }

  private Map<String, Object> struct(
      TypeNode.Struct s, List<Map.Entry<Object, Value>> entries, String path, long depth)
      throws BindError, LimitError {
    if (depth > maxDepth) {
      throw new LimitError();
    }
    charge(entries.size());
    Map<String, TypeNode.Field> fields = new LinkedHashMap<>();
    for (TypeNode.Field f : s.fields()) {
      fields.put(f.name(), f);
    }
    Set<String> seen = new HashSet<>();
    Map<String, Object> out = new TreeMap<>();
    for (Map.Entry<Object, Value> e : entries) {
      if (!(e.getKey() instanceof String key)) {
        throw new BindError("keyword name must be a string");
      }
      String p = member(path, key);
      TypeNode.Field f = fields.get(key);
      if (f == null) {
        throw new BindError("unknown argument " + GoQuote.quote(p));
      }
      if (!seen.add(key)) {
        throw new BindError("duplicate argument " + GoQuote.quote(p));
      }
      if (f.type() instanceof TypeNode.Opt && e.getValue() instanceof NoneValue) {
        continue;
      }
      out.put(key, value(f.type(), e.getValue(), p, depth + 1, false));
    }
    for (TypeNode.Field f : s.fields()) {
      if (!(f.type() instanceof TypeNode.Opt) && !seen.contains(f.name())) {
        throw new BindError("missing required argument " + GoQuote.quote(member(path, f.name())));
      }
    }
    return out;
  }

  private Object value(TypeNode n, Value v, String path, long depth, boolean optional)
      throws BindError, LimitError {
    if (n instanceof TypeNode.Opt o) {
      if (v instanceof NoneValue) {
        charge(1);
        return null;
      }
      return value(o.elem(), v, path, depth, true);
    }
    if (depth > maxDepth) {
      throw new LimitError();
    }
    charge(1);
    String orNone = optional ? " or None" : "";
    // instanceof, not a pattern switch: the worker path generates no classes at start
    // (WorkerPathTest).
    if (n instanceof TypeNode.Str s) {
      if (!(v instanceof StarlarkString str)) {
        throw typeError(path, "a string", orNone);
      }
      return str.value();
    } else if (n instanceof TypeNode.Bool b) {
      if (!(v instanceof Bool bool)) {
        throw typeError(path, "a bool", orNone);
      }
      return bool.truth();
    } else if (n instanceof TypeNode.Int i) {
      if (!(v instanceof StarlarkInt si)) {
        throw typeError(path, "an integer", orNone);
      }
      boolean full = i.min() == Long.MIN_VALUE && i.max() == Long.MAX_VALUE;
      if (!si.isLong()) {
        throw full
            ? new BindError("argument " + GoQuote.quote(path) + " overflows int64")
            : range(path, i);
      }
      long l = si.longValue();
      if (l < i.min() || l > i.max()) {
        throw range(path, i);
      }
      return l;
    } else if (n instanceof TypeNode.Flt f) {
      double d;
      if (v instanceof StarlarkFloat sf) {
        d = sf.value();
      } else if (v instanceof StarlarkInt si) {
        d = si.isLong() ? (double) si.longValue() : si.toBigInteger().doubleValue();
      } else {
        throw typeError(path, "a float", orNone);
      }
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw new BindError("argument " + GoQuote.quote(path) + " is not finite");
      }
      if (f.float32()) {
        if (Math.abs(d) > Float.MAX_VALUE) {
          throw new BindError("argument " + GoQuote.quote(path) + " overflows float32");
        }
        d = (double) (float) d;
      }
      return d;
    } else if (n instanceof TypeNode.ListOf l) {
      List<Value> elems;
      if (v instanceof StarlarkList sl) {
        elems = sl.elements();
      } else if (v instanceof Tuple t) {
        elems = t.elements();
      } else {
        throw typeError(path, "a list", orNone);
      }
      charge(elems.size());
      nodes += elems.size();
      List<Object> out = new ArrayList<>(elems.size());
      for (int k = 0; k < elems.size(); k++) {
        out.add(value(l.elem(), elems.get(k), path + "[" + k + "]", depth + 1, false));
      }
      return out;
    } else if (n instanceof TypeNode.DictOf d) {
      if (!(v instanceof Dict dict)) {
        throw typeError(path, "a dict", orNone);
      }
      charge(dict.len());
      nodes += dict.len();
      Map<String, Object> out = new TreeMap<>();
      for (Map.Entry<Value, Value> e : dict.entries()) {
        if (!(e.getKey() instanceof StarlarkString k)) {
          throw new BindError("argument " + GoQuote.quote(path) + " keys must be strings");
        }
        out.put(k.value(), value(d.elem(), e.getValue(), key(path, k.value()), depth + 1, false));
      }
      return out;
    } else if (n instanceof TypeNode.Struct s) {
      if (!(v instanceof Dict dict)) {
        throw typeError(path, "a dict", orNone);
      }
      List<Map.Entry<Object, Value>> entries = new ArrayList<>();
      for (Map.Entry<Value, Value> e : dict.entries()) {
        Object k = e.getKey() instanceof StarlarkString ks ? ks.value() : e.getKey();
        entries.add(Map.entry(k, e.getValue()));
      }
      nodes += 1;
      return struct(s, entries, path, depth);
    } else if (n instanceof TypeNode.Opt o) {
      throw new IllegalStateException("unreachable");
    }
    throw new IllegalStateException("unknown " + n);
  }

  private void charge(long n) throws LimitError {
    nodes -= n;
    if (nodes < 0) {
      throw new LimitError();
    }
  }

  private static BindError typeError(String path, String what, String orNone) {
    return new BindError("argument " + GoQuote.quote(path) + " must be " + what + orNone);
  }

  private static BindError range(String path, TypeNode.Int i) {
    return new BindError(
        "argument " + GoQuote.quote(path) + " must be between " + i.min() + " and " + i.max());
  }

  private static String member(String parent, String name) {
    if (parent.isEmpty()) {
      return name;
    }
    return Names.isIdentifierSyntax(name) ? parent + "." + name : key(parent, name);
  }

  private static String key(String parent, String k) {
    if (k.indexOf('\'') < 0
        && k.indexOf('\\') < 0
        && k.codePoints().allMatch(c -> c >= 0x20 && c != 0x7F)) {
      return parent + "['" + k + "']";
    }
    return parent + "[" + GoQuote.quote(k) + "]";
  }
}
