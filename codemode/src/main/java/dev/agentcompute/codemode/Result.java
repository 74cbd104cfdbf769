package dev.agentcompute.codemode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A typed view of what {@link Server#execute} returns: the value of the program's {@code main}, as
 * {@code null}, {@link Boolean}, {@link Long} (a Starlark int), {@link Double} (a finite float),
 * {@link String}, {@link List} or {@link Map} with {@code String} keys in UTF-8 byte order. Each
 * accessor names the type it expected and the one it found when they differ.
 *
 * <pre>{@code
 * Result r = server.run(subject, "def main():\n    return {\"count\": 2}\n");
 * long count = r.get("count").asLong();
 * }</pre>
 *
 * @param value the raw value: null, Boolean, Long, Double, String, List or Map
 */
public record Result(Object value) {

  /** Wraps a value returned by {@link Server#execute}. */
  public static Result of(Object value) {
    return new Result(value);
  }

  /** Whether main returned {@code None}. */
  public boolean isNull() {
    return value == null;
  }

  public boolean asBoolean() {
    return as(Boolean.class, "a bool");
  }

  /** A Starlark int; every int a program returns fits a {@code long}. */
  public long asLong() {
    return as(Long.class, "an int");
  }

  /** A Starlark float, or an int widened to double. */
  public double asDouble() {
    if (value instanceof Long l) {
      return l;
    }
    return as(Double.class, "a float");
  }

  public String asString() {
    return as(String.class, "a string");
  }

  /** The elements of a list, each as a Result. */
  public List<Result> asList() {
    List<?> list = as(List.class, "a list");
    List<Result> out = new ArrayList<>(list.size());
    for (Object o : list) {
      out.add(new Result(o));
    }
    return Collections.unmodifiableList(out);
  }

  /** The entries of a dict in the order the server returned them (UTF-8 byte order of keys). */
  public Map<String, Result> asMap() {
    Map<?, ?> map = as(Map.class, "a dict");
    Map<String, Result> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : map.entrySet()) {
      out.put((String) e.getKey(), new Result(e.getValue()));
    }
    return Collections.unmodifiableMap(out);
  }

  /** The value under {@code key} of a dict; an absent key fails naming the keys present. */
  public Result get(String key) {
    Map<?, ?> map = as(Map.class, "a dict");
    if (!map.containsKey(key)) {
      throw new IllegalStateException(
          "execute result has no key \"" + key + "\"; its keys are " + map.keySet());
    }
    return new Result(map.get(key));
  }

  /** The element at {@code index} of a list. */
  public Result get(int index) {
    List<?> list = as(List.class, "a list");
    if (index < 0 || index >= list.size()) {
      throw new IllegalStateException(
          "execute result has no index " + index + "; the list has " + list.size() + " elements");
    }
    return new Result(list.get(index));
  }

  private <T> T as(Class<T> type, String expected) {
    if (type.isInstance(value)) {
      return type.cast(value);
    }
    throw new IllegalStateException("execute result is " + describe(value) + ", not " + expected);
  }

  private static String describe(Object v) {
    return switch (v) {
      case null -> "None";
      case Boolean b -> "a bool";
      case Long l -> "an int";
      case Double d -> "a float";
      case String s -> "a string";
      case List<?> l -> "a list";
      case Map<?, ?> m -> "a dict";
      default -> "a " + v.getClass().getName();
    };
  }
}
