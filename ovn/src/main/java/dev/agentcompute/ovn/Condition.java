package dev.agentcompute.ovn;

import java.util.Objects;

/** One {@code where} clause term: {@code [column, function, value]} (RFC 7047 §5.1). */
public record Condition(String column, String function, Object value) {
  public Condition {
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(function, "function");
    Objects.requireNonNull(value, "value");
  }

  public static Condition eq(String column, Object value) {
    return new Condition(column, "==", value);
  }

  public static Condition ne(String column, Object value) {
    return new Condition(column, "!=", value);
  }

  public static Condition includes(String column, Object value) {
    return new Condition(column, "includes", value);
  }

  public static Condition excludes(String column, Object value) {
    return new Condition(column, "excludes", value);
  }

  public static Condition lt(String column, Object value) {
    return new Condition(column, "<", value);
  }

  public static Condition le(String column, Object value) {
    return new Condition(column, "<=", value);
  }

  public static Condition gt(String column, Object value) {
    return new Condition(column, ">", value);
  }

  public static Condition ge(String column, Object value) {
    return new Condition(column, ">=", value);
  }

  /** {@code _uuid == uuid}. */
  public static Condition uuidIs(Uuid uuid) {
    return eq("_uuid", uuid);
  }
}
