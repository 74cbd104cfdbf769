package dev.agentcompute.rego.eval;

import dev.agentcompute.rego.compile.Ir;
import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.RegoValue;
import java.util.HashMap;
import java.util.Map;

/**
 * What the documents are for the expressions being evaluated: {@code input}, base {@code data},
 * {@code with} replacements and mocked functions, plus the cache of rule values computed under
 * exactly these. {@code with} evaluates its expression in a new Env (with an empty cache).
 */
final class Env {
  /** A function replacement: another function, or a constant result. */
  record Mock(Ir.Fn function, RegoValue value) {}

  /** Cache marker for a rule that was evaluated and is undefined. */
  static final Object UNDEFINED = new Object();

  final RegoValue input; // null: undefined
  final RegoObject data;
  final Overrides overrides; // null: none
  final Map<String, Mock> mocks; // null: none
  final Object[] cache; // by RuleNode.index(): RegoValue, UNDEFINED, or null (not computed)

  Env(RegoValue input, RegoObject data, Overrides overrides, Map<String, Mock> mocks, int nodes) {
    this.input = input;
    this.data = data;
    this.overrides = overrides;
    this.mocks = mocks;
    this.cache = new Object[nodes];
  }

  Env withInput(RegoValue in) {
    return new Env(in, data, overrides, mocks, cache.length);
  }

  Env withData(RegoValue[] path, RegoValue v) {
    Overrides o = overrides == null ? Overrides.EMPTY : overrides;
    return new Env(input, data, o.with(path, 0, v), mocks, cache.length);
  }

  Env withMock(String name, Mock m) {
    Map<String, Mock> next = mocks == null ? new HashMap<>() : new HashMap<>(mocks);
    next.put(name, m);
    return new Env(input, data, overrides, Map.copyOf(next), cache.length);
  }
}
