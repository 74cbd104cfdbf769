package dev.agentcompute.starlark.lib;

import dev.agentcompute.starlark.eval.Bool;
import dev.agentcompute.starlark.eval.Dict;
import dev.agentcompute.starlark.eval.EvalException;
import dev.agentcompute.starlark.eval.HasAttrs;
import dev.agentcompute.starlark.eval.Iterable;
import dev.agentcompute.starlark.eval.Iterator;
import dev.agentcompute.starlark.eval.NoneValue;
import dev.agentcompute.starlark.eval.StarlarkFloat;
import dev.agentcompute.starlark.eval.StarlarkInt;
import dev.agentcompute.starlark.eval.StarlarkString;
import dev.agentcompute.starlark.eval.StarlarkThread;
import dev.agentcompute.starlark.eval.Value;
import dev.agentcompute.starlark.eval.VisitPath;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/** json.encode: compact JSON with sorted dict keys, as starlark-go's lib/json writes it. */
final class JsonEncoder {
  /**
   * Orders string-keyed entries by key bytes (a class, not a lambda: no bootstrap in a cold JVM).
   */
  private static final class ByKey implements java.util.Comparator<Map.Entry<Value, Value>> {
    @Override
    public int compare(Map.Entry<Value, Value> a, Map.Entry<Value, Value> b) {
      return ((StarlarkString) a.getKey()).compareBytes((StarlarkString) b.getKey());
    }
  }

  private static final ByKey BY_KEY = new ByKey();

  private final StarlarkThread thread;
  private final StringBuilder out = new StringBuilder();
  private final VisitPath path = new VisitPath();
  private long charged;

  private JsonEncoder(StarlarkThread thread) {
    this.thread = thread;
  }

  /** Encodes {@code x}; errors are prefixed with {@code fnName}. */
  static String encode(StarlarkThread thread, String fnName, Value x) throws EvalException {
    JsonEncoder e = new JsonEncoder(thread);
    try {
      e.emit(x);
    } catch (dev.agentcompute.starlark.eval.BudgetException b) {
      throw b;
    } catch (EvalException err) {
      throw new EvalException(fnName + ": " + err.getMessage());
    }
    e.charge();
    return e.out.toString();
  }

  /** The largest encoding produced (shared sub-structures can expand exponentially). */
  private static final int MAX_CHARS = 1 << 27;

  private void charge() throws EvalException {
    if (out.length() > MAX_CHARS) {
      throw new EvalException("result too large (more than " + MAX_CHARS + " bytes)");
    }
    long n = out.length() - charged;
    if (n > 0 && thread != null) {
      thread.addSteps(1 + n / 64);
      thread.allocate(n);
    }
    charged = out.length();
  }

  private void emit(Value x) throws EvalException {
    if (out.length() - charged > 4096) {
      charge();
    }
    boolean container = x instanceof Iterable || x instanceof HasAttrs;
    if (container && !(x instanceof StarlarkString)) {
      if (!path.enter(x)) {
        throw new EvalException("cycle in JSON structure");
      }
      try {
        emitValue(x);
      } finally {
        path.leave();
      }
    } else {
      emitValue(x);
    }
  }

  private void emitValue(Value x) throws EvalException {
    if (x == NoneValue.NONE) {
      out.append("null");
    } else if (x instanceof Bool b) {
      out.append(b.value() ? "true" : "false");
    } else if (x instanceof StarlarkInt i) {
      out.append(i.toString(thread, 10));
    } else if (x instanceof StarlarkFloat f) {
      if (!Double.isFinite(f.value())) {
        throw new EvalException("cannot encode non-finite float " + f);
      }
      out.append(f);
    } else if (x instanceof StarlarkString s) {
      quote(out, s.value());
    } else if (x instanceof Dict d) {
      List<Map.Entry<Value, Value>> items = new ArrayList<>(d.entries());
      for (Map.Entry<Value, Value> item : items) {
        if (!(item.getKey() instanceof StarlarkString)) {
          throw new EvalException(d.type() + " has " + item.getKey().type() + " key, want string");
        }
      }
      items.sort(BY_KEY);
      out.append('{');
      for (int i = 0; i < items.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        StarlarkString k = (StarlarkString) items.get(i).getKey();
        quote(out, k.value());
        out.append(':');
        try {
          emit(items.get(i).getValue());
        } catch (dev.agentcompute.starlark.eval.BudgetException b) {
          throw b;
        } catch (EvalException e) {
          throw new EvalException("in " + d.type() + " key " + k + ": " + e.getMessage());
        }
      }
      out.append('}');
    } else if (x instanceof Iterable it) {
      out.append('[');
      try (Iterator iter = it.iterate()) {
        Value v;
        for (int i = 0; (v = iter.next()) != null; i++) {
          if (i > 0) {
            out.append(',');
          }
          try {
            emit(v);
          } catch (dev.agentcompute.starlark.eval.BudgetException b) {
            throw b;
          } catch (EvalException e) {
            throw new EvalException("at " + x.type() + " index " + i + ": " + e.getMessage());
          }
        }
      }
      out.append(']');
    } else if (x instanceof HasAttrs h) {
      List<String> names = new ArrayList<>(h.attrNames());
      Collections.sort(names);
      out.append('{');
      boolean first = true;
      for (String name : names) {
        Value v;
        try {
          v = h.attr(name);
        } catch (dev.agentcompute.starlark.eval.BudgetException b) {
          throw b;
        } catch (EvalException e) {
          throw new EvalException(
              "cannot access attribute " + x.type() + "." + name + ": " + e.getMessage());
        }
        if (v == null) {
          continue;
        }
        if (!first) {
          out.append(',');
        }
        first = false;
        quote(out, name);
        out.append(':');
        try {
          emit(v);
        } catch (dev.agentcompute.starlark.eval.BudgetException b) {
          throw b;
        } catch (EvalException e) {
          throw new EvalException("in field ." + name + ": " + e.getMessage());
        }
      }
      out.append('}');
    } else {
      throw new EvalException("cannot encode " + x.type() + " as JSON");
    }
  }

  /** Go's encoding/json string quoting (HTML-safe), used by lib/json for non-trivial strings. */
  static void quote(StringBuilder sb, String s) {
    final String hex = "0123456789abcdef";
    boolean printableAscii = true;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c >= 0x7f) {
        printableAscii = false;
        break;
      }
    }
    if (printableAscii) {
      // lib/json's fast path: only backslash and quote are escaped (no HTML escaping).
      sb.append('"');
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (c == '\\' || c == '"') {
          sb.append('\\');
        }
        sb.append(c);
      }
      sb.append('"');
      return;
    }
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        case '<', '>', '&', '\u2028', '\u2029' -> {
          sb.append("\\u");
          for (int sh = 12; sh >= 0; sh -= 4) {
            sb.append(hex.charAt((c >> sh) & 0xF));
          }
        }
        default -> {
          if (c < 0x20) {
            sb.append("\\u00").append(hex.charAt(c >> 4)).append(hex.charAt(c & 0xF));
          } else if (Character.isSurrogate(c)
              && !(Character.isHighSurrogate(c)
                  && i + 1 < s.length()
                  && Character.isLowSurrogate(s.charAt(i + 1)))
              && !(Character.isLowSurrogate(c)
                  && i > 0
                  && Character.isHighSurrogate(s.charAt(i - 1)))) {
            sb.append('\ufffd');
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
