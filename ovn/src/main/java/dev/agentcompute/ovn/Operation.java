package dev.agentcompute.ovn;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One operation of a {@code transact} request (RFC 7047 §5.2). Start from a factory ({@code
 * Operation.insert("Logical_Switch")}) and refine with the returned record's methods; every method
 * returns a new immutable value.
 */
public sealed interface Operation {

  String table();

  static Insert insert(String table) {
    return new Insert(table, Map.of(), Optional.empty());
  }

  static Select select(String table) {
    return new Select(table, List.of(), List.of());
  }

  static Update update(String table) {
    return new Update(table, List.of(), Map.of());
  }

  static Mutate mutate(String table) {
    return new Mutate(table, List.of(), List.of());
  }

  static Delete delete(String table) {
    return new Delete(table, List.of());
  }

  /** A {@code wait} operation; by default waits until the selected rows equal {@code rows}. */
  static Wait waitUntil(String table) {
    return new Wait(table, List.of(), List.of(), true, List.of(), Optional.empty());
  }

  /** A {@code comment} that the server writes to its log. */
  static Comment comment(String text) {
    return new Comment(text);
  }

  /**
   * Inserts one row; {@code uuidName} lets later operations refer to it with a {@link NamedUuid}.
   */
  record Insert(String table, Map<String, Object> row, Optional<String> uuidName)
      implements Operation {
    public Insert {
      Objects.requireNonNull(table, "table");
      row = copy(row);
      uuidName.ifPresent(NamedUuid::new); // validates the name
    }

    public Insert value(String column, Object value) {
      return new Insert(table, with(row, column, value), uuidName);
    }

    public Insert uuidName(String name) {
      return new Insert(table, row, Optional.of(name));
    }

    /** The reference to this row for later operations in the same transaction. */
    public NamedUuid ref() {
      return new NamedUuid(
          uuidName.orElseThrow(
              () -> new IllegalStateException("insert into " + table + " has no uuidName")));
    }
  }

  record Select(String table, List<Condition> where, List<String> columns) implements Operation {
    public Select {
      Objects.requireNonNull(table, "table");
      where = List.copyOf(where);
      columns = List.copyOf(columns);
    }

    public Select where(Condition... conditions) {
      return new Select(table, concat(where, conditions), columns);
    }

    /** Restricts the returned columns; none means all. */
    public Select columns(String... names) {
      return new Select(table, where, concat(columns, names));
    }
  }

  record Update(String table, List<Condition> where, Map<String, Object> row) implements Operation {
    public Update {
      Objects.requireNonNull(table, "table");
      where = List.copyOf(where);
      row = copy(row);
    }

    public Update where(Condition... conditions) {
      return new Update(table, concat(where, conditions), row);
    }

    public Update set(String column, Object value) {
      return new Update(table, where, with(row, column, value));
    }
  }

  record Mutate(String table, List<Condition> where, List<Mutation> mutations)
      implements Operation {
    public Mutate {
      Objects.requireNonNull(table, "table");
      where = List.copyOf(where);
      mutations = List.copyOf(mutations);
    }

    public Mutate where(Condition... conditions) {
      return new Mutate(table, concat(where, conditions), mutations);
    }

    public Mutate with(Mutation... more) {
      return new Mutate(table, where, concat(mutations, more));
    }
  }

  record Delete(String table, List<Condition> where) implements Operation {
    public Delete {
      Objects.requireNonNull(table, "table");
      where = List.copyOf(where);
    }

    public Delete where(Condition... conditions) {
      return new Delete(table, concat(where, conditions));
    }
  }

  /**
   * Waits until the rows selected by {@code where} (projected on {@code columns}) are equal ({@code
   * untilEqual}) or not equal to {@code rows}, or fails with {@code timed out}.
   */
  record Wait(
      String table,
      List<Condition> where,
      List<String> columns,
      boolean untilEqual,
      List<Map<String, Object>> rows,
      Optional<Duration> timeout)
      implements Operation {
    public Wait {
      Objects.requireNonNull(table, "table");
      where = List.copyOf(where);
      columns = List.copyOf(columns);
      rows = rows.stream().map(Operation::copy).toList();
    }

    public Wait where(Condition... conditions) {
      return new Wait(table, concat(where, conditions), columns, untilEqual, rows, timeout);
    }

    public Wait columns(String... names) {
      return new Wait(table, where, concat(columns, names), untilEqual, rows, timeout);
    }

    public Wait untilNotEqual() {
      return new Wait(table, where, columns, false, rows, timeout);
    }

    public Wait row(Map<String, Object> row) {
      List<Map<String, Object>> more = new ArrayList<>(rows);
      more.add(row);
      return new Wait(table, where, columns, untilEqual, more, timeout);
    }

    public Wait timeout(Duration limit) {
      return new Wait(table, where, columns, untilEqual, rows, Optional.of(limit));
    }
  }

  record Comment(String text) implements Operation {
    public Comment {
      Objects.requireNonNull(text, "text");
    }

    @Override
    public String table() {
      return "";
    }
  }

  private static Map<String, Object> copy(Map<String, Object> row) {
    Map<String, Object> copy = new LinkedHashMap<>();
    row.forEach(
        (k, v) ->
            copy.put(
                Objects.requireNonNull(k, "column"),
                Objects.requireNonNull(v, () -> "value of column " + k)));
    return Collections.unmodifiableMap(copy);
  }

  private static Map<String, Object> with(Map<String, Object> row, String column, Object value) {
    Map<String, Object> copy = new LinkedHashMap<>(row);
    copy.put(column, value);
    return copy;
  }

  @SafeVarargs
  private static <T> List<T> concat(List<T> head, T... tail) {
    List<T> all = new ArrayList<>(head);
    all.addAll(Arrays.asList(tail));
    return all;
  }
}
