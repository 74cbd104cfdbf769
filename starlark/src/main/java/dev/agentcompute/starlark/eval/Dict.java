package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Token;
import java.util.List;
import java.util.Map;

/** A mutable mapping that keeps insertion order (starlark-go's hashtable rules). */
public final class Dict extends HashedCollection implements HasSetKey {
  public Dict() {}

  /** A new dict holding {@code entries} in iteration order. */
  public static Dict copyOf(Map<? extends Value, ? extends Value> entries) throws EvalException {
    Dict d = new Dict();
    for (Map.Entry<? extends Value, ? extends Value> e : entries.entrySet()) {
      d.put(e.getKey(), e.getValue());
    }
    return d;
  }

  public void put(Value k, Value v) throws EvalException {
    table.insert(k, v);
  }

  /** Removes {@code k}; returns its value or null. */
  public Value remove(Value k) throws EvalException {
    return table.delete(k);
  }

  public void clear() throws EvalException {
    table.clear();
  }

  public boolean containsKey(Value k) throws EvalException {
    return table.contains(k);
  }

  /** The keys in insertion order (a snapshot). */
  public List<Value> keys() {
    return keyList();
  }

  /** The values in insertion order (a snapshot). */
  public List<Value> values() {
    return List.of(table.valuesArray());
  }

  /** The entries in insertion order (a snapshot). */
  public List<Map.Entry<Value, Value>> entries() {
    Value[] ks = table.keysArray();
    Value[] vs = table.valuesArray();
    Map.Entry<Value, Value>[] out = newEntries(ks.length);
    for (int i = 0; i < ks.length; i++) {
      out[i] = Map.entry(ks[i], vs[i]);
    }
    return List.of(out);
  }

  @SuppressWarnings("unchecked")
  private static Map.Entry<Value, Value>[] newEntries(int n) {
    return (Map.Entry<Value, Value>[]) new Map.Entry[n];
  }

  @Override
  public Value get(Value key) throws EvalException {
    return table.get(key);
  }

  @Override
  public void setKey(Value key, Value v) throws EvalException {
    table.insert(key, v);
  }

  @Override
  public String type() {
    return "dict";
  }

  @Override
  String open() {
    return "{";
  }

  @Override
  String close() {
    return "}";
  }

  @Override
  void reprEntry(StringBuilder sb, Printer p, int e) {
    p.repr(sb, table.keyAt(e));
    sb.append(": ");
    p.repr(sb, table.valueAt(e));
  }

  @Override
  public String cycleMarker() {
    return "{...}";
  }

  @Override
  public Value attr(String name) throws EvalException {
    return DictMethods.attr(this, name);
  }

  @Override
  public List<String> attrNames() {
    return DictMethods.names();
  }

  @Override
  public boolean compareSameType(Token op, Value y, Comparison cmp) throws EvalException {
    Dict dy = (Dict) y;
    switch (op) {
      case EQL:
        return dictsEqual(this, dy, cmp);
      case NEQ:
        return !dictsEqual(this, dy, cmp);
      default:
        throw new EvalException("dict " + op + " dict not implemented");
    }
  }

  private static boolean dictsEqual(Dict x, Dict y, Comparison cmp) throws EvalException {
    if (x.len() != y.len()) {
      return false;
    }
    HashTable t = x.table;
    for (int e = t.nextEntry(0); e >= 0; e = t.nextEntry(e + 1)) {
      cmp.count(2); // a lookup and a comparison
      Value yv = y.get(t.keyAt(e));
      if (yv == null || !cmp.equal(t.valueAt(e), yv)) {
        return false;
      }
    }
    return true;
  }
}
