package dev.agentcompute.starlark.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Binds call arguments to the parameters of a {@code def}/{@code lambda} (Go's setArgs). */
final class EvalCall {
  private EvalCall() {}

  static void bind(
      Value[] locals, StarlarkFunction fn, Value[] args, List<Map.Entry<String, Value>> kwargs)
      throws EvalException {
    FunctionCode code = fn.code;
    String name = code.name;
    int nparams = code.numParams;
    if (nparams == 0 && !code.hasVarargs && !code.hasKwargs) {
      int nactual = args.length + kwargs.size();
      if (nactual > 0) {
        throw new EvalException(
            "function " + name + " accepts no arguments (" + nactual + " given)");
      }
      return;
    }
    Dict kwdict = null;
    if (code.hasKwargs) {
      kwdict = new Dict();
      locals[nparams + (code.hasVarargs ? 1 : 0)] = kwdict;
    }
    int nonkwonly = code.nonKwonly;
    int n = args.length;
    if (n > nonkwonly) {
      if (!code.hasVarargs) {
        throw new EvalException(
            "function "
                + name
                + " accepts "
                + (code.optionalPositional ? "at most " : "")
                + nonkwonly
                + " positional argument"
                + (nonkwonly == 1 ? "" : "s")
                + " ("
                + args.length
                + " given)");
      }
      n = nonkwonly;
    }
    System.arraycopy(args, 0, locals, 0, n);
    if (code.hasVarargs) {
      Value[] rest = new Value[args.length - n];
      System.arraycopy(args, n, rest, 0, rest.length);
      locals[nparams] = rest.length == 0 ? Tuple.EMPTY : Tuple.wrap(rest);
    }
    for (Map.Entry<String, Value> kv : kwargs) {
      String k = kv.getKey();
      int i = findParam(code.paramNames, k);
      if (i >= 0) {
        if (locals[i] != null) {
          throw new EvalException(
              "function " + name + " got multiple values for parameter " + StarlarkString.of(k));
        }
        locals[i] = kv.getValue();
        continue;
      }
      if (kwdict == null) {
        throw new EvalException(
            "function " + name + " got an unexpected keyword argument " + StarlarkString.of(k));
      }
      int before = kwdict.len();
      kwdict.put(StarlarkString.of(k), kv.getValue());
      if (kwdict.len() == before) {
        throw new EvalException(
            "function " + name + " got multiple values for parameter " + StarlarkString.of(k));
      }
    }
    if (n < nparams) {
      List<String> missing = null;
      for (int i = n; i < nparams; i++) {
        if (locals[i] == null) {
          Value d = fn.defaults[i];
          if (d == null) {
            if (missing == null) {
              missing = new ArrayList<>();
            }
            missing.add(code.paramNames[i]);
          } else {
            locals[i] = d;
          }
        }
      }
      if (missing != null) {
        throw new EvalException(
            "function "
                + name
                + " missing "
                + missing.size()
                + " argument"
                + (missing.size() > 1 ? "s" : "")
                + " ("
                + String.join(", ", missing)
                + ")");
      }
    }
  }

  private static int findParam(String[] names, String k) {
    for (int i = 0; i < names.length; i++) {
      if (names[i].equals(k)) {
        return i;
      }
    }
    return -1;
  }
}
