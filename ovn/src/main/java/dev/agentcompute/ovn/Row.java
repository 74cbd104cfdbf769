package dev.agentcompute.ovn;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One row as the server sent it: column name to decoded value. Values are {@link String}, {@link
 * Long}, {@link Double}, {@link Boolean}, {@link Uuid}, an unmodifiable {@link Set} of those, or an
 * unmodifiable {@link Map}. A set column with exactly one element may arrive as the bare atom, so
 * read set and optional columns with {@link #set} and {@link #optional}, which accept both forms.
 */
public record Row(Map<String, Object> columns) {
  public Row {
    columns = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(columns));
  }

  /** The row's {@code _uuid}. */
  public Uuid uuid() {
    return atom("_uuid", Uuid.class);
  }

  public boolean has(String column) {
    return columns.containsKey(column);
  }

  public Object get(String column) {
    Object value = columns.get(column);
    if (value == null) {
      throw new IllegalArgumentException(
          "row has no column '" + column + "' (columns: " + columns.keySet() + ")");
    }
    return value;
  }

  public String string(String column) {
    return atom(column, String.class);
  }

  public long integer(String column) {
    return atom(column, Long.class);
  }

  public boolean bool(String column) {
    return atom(column, Boolean.class);
  }

  /** A column of type {@code min 0, max 1}: empty set or a single atom. */
  public <T> Optional<T> optional(String column, Class<T> type) {
    Set<T> values = set(column, type);
    if (values.size() > 1) {
      throw new IllegalArgumentException(
          "column '" + column + "' holds " + values.size() + " values, expected at most one");
    }
    return values.stream().findFirst();
  }

  /** A set column; a bare atom is read as a one-element set. */
  public <T> Set<T> set(String column, Class<T> type) {
    Object value = get(column);
    Collection<?> elements = value instanceof Set<?> s ? s : List.of(value);
    Set<T> result = new LinkedHashSet<>();
    for (Object element : elements) {
      result.add(cast(column, element, type));
    }
    return java.util.Collections.unmodifiableSet(result);
  }

  /** A map column. */
  public <K, V> Map<K, V> map(String column, Class<K> keyType, Class<V> valueType) {
    Object value = get(column);
    if (!(value instanceof Map<?, ?> m)) {
      throw new IllegalArgumentException("column '" + column + "' is not a map: " + value);
    }
    Map<K, V> result = new LinkedHashMap<>();
    m.forEach((k, v) -> result.put(cast(column, k, keyType), cast(column, v, valueType)));
    return java.util.Collections.unmodifiableMap(result);
  }

  /**
   * String-to-string map, the type of every {@code external_ids}, {@code options} and {@code
   * other_config}.
   */
  public Map<String, String> stringMap(String column) {
    return map(column, String.class, String.class);
  }

  private <T> T atom(String column, Class<T> type) {
    Object value = get(column);
    if (value instanceof Set<?> s && s.size() == 1) {
      value = s.iterator().next();
    }
    return cast(column, value, type);
  }

  private static <T> T cast(String column, Object value, Class<T> type) {
    if (!type.isInstance(value)) {
      throw new IllegalArgumentException(
          "column '"
              + column
              + "': expected "
              + type.getSimpleName()
              + " but got "
              + (value == null ? "null" : value.getClass().getSimpleName() + " " + value));
    }
    return type.cast(value);
  }
}
