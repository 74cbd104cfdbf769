package dev.agentcompute.starlark.eval;

import java.util.List;

/** A value with fields or methods reachable by {@code x.name}. */
public interface HasAttrs extends Value {
  /** The attribute, or {@code null} if there is none by that name. */
  Value attr(String name) throws EvalException;

  /** The attribute names, as {@code dir(x)} lists them (sorted by the caller). */
  List<String> attrNames();
}
