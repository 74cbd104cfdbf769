package dev.agentcompute.starlark.eval;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A value of type {@code module}: a named, read-only set of members. Used both for library modules
 * ({@code json}, {@code math}, {@code assert}, capability roots), built with {@link #Module(String,
 * Map)}, and for the globals of an executed Starlark program, whose members are global slots
 * indexed by the resolver. Unhashable, as in starlark-go.
 */
public final class Module implements HasAttrs {
  private final String name;
  private final String[] names;

  /** Member values; for a program module, a global slot is null until assigned. */
  final Value[] values;

  private final Map<String, Integer> index;
  private boolean frozen;

  /** A library module with the given members (listed by {@code dir()} in sorted order). */
  public Module(String name, Map<String, ? extends Value> members) {
    this.name = name;
    TreeMap<String, Value> sorted = new TreeMap<>(members);
    this.names = sorted.keySet().toArray(new String[0]);
    this.values = sorted.values().toArray(new Value[0]);
    this.index = indexOf(names);
  }

  /** The globals of a program: one unbound slot per name, in resolver order. */
  Module(String name, List<String> globalNames) {
    this.name = name;
    this.names = globalNames.toArray(new String[0]);
    this.values = new Value[names.length];
    this.index = indexOf(names);
  }

  private static Map<String, Integer> indexOf(String[] names) {
    Map<String, Integer> m = new LinkedHashMap<>();
    for (int i = 0; i < names.length; i++) {
      m.put(names[i], i);
    }
    return m;
  }

  public String name() {
    return name;
  }

  /** The member (global) of that name, or null if it does not exist or is unbound. */
  public Value global(String member) {
    Integer i = index.get(member);
    return i == null ? null : values[i];
  }

  /** The bound members in declaration order (program) or sorted order (library). */
  public Map<String, Value> members() {
    Map<String, Value> m = new LinkedHashMap<>();
    for (int i = 0; i < names.length; i++) {
      if (values[i] != null) {
        m.put(names[i], values[i]);
      }
    }
    return Collections.unmodifiableMap(m);
  }

  @Override
  public Value attr(String member) {
    return global(member);
  }

  @Override
  public List<String> attrNames() {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < names.length; i++) {
      if (values[i] != null) {
        out.add(names[i]);
      }
    }
    Collections.sort(out);
    return out;
  }

  @Override
  public String type() {
    return "module";
  }

  @Override
  public boolean truth() {
    return true;
  }

  @Override
  public int hash() throws EvalException {
    throw new EvalException("unhashable: module");
  }

  @Override
  public void freeze() {
    if (!frozen) {
      frozen = true;
      for (Value v : values) {
        if (v != null) {
          v.freeze();
        }
      }
    }
  }

  @Override
  public boolean isFrozen() {
    return frozen;
  }

  @Override
  public void repr(StringBuilder sb) {
    sb.append("<module \"").append(name).append("\">");
  }

  @Override
  public String toString() {
    return "<module \"" + name + "\">";
  }

  @Override
  public boolean equals(Object o) {
    return this == o;
  }

  @Override
  public int hashCode() {
    return System.identityHashCode(this) ^ Arrays.hashCode(names);
  }
}
