package dev.agentcompute.starlark.eval;

import java.util.List;
import java.util.Map;

/** A value that can be called: builtins implemented in Java and Starlark functions. */
public interface Callable extends Value {
  String name();

  Value call(StarlarkThread thread, Value[] positional, List<Map.Entry<String, Value>> named)
      throws EvalException;
}
