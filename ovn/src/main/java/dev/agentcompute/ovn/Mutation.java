package dev.agentcompute.ovn;

import java.util.Objects;

/** One {@code mutate} term: {@code [column, mutator, value]} (RFC 7047 §5.1). */
public record Mutation(String column, String mutator, Object value) {
  public Mutation {
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(mutator, "mutator");
    Objects.requireNonNull(value, "value");
  }

  /** Adds elements (a set) or key/value pairs (a map) to a set or map column. */
  public static Mutation insert(String column, Object value) {
    return new Mutation(column, "insert", value);
  }

  /** Removes elements, or map entries by key (a set of keys) or by key/value pair (a map). */
  public static Mutation delete(String column, Object value) {
    return new Mutation(column, "delete", value);
  }

  public static Mutation add(String column, Number value) {
    return new Mutation(column, "+=", value);
  }

  public static Mutation subtract(String column, Number value) {
    return new Mutation(column, "-=", value);
  }

  public static Mutation multiply(String column, Number value) {
    return new Mutation(column, "*=", value);
  }

  public static Mutation divide(String column, Number value) {
    return new Mutation(column, "/=", value);
  }

  public static Mutation modulo(String column, Number value) {
    return new Mutation(column, "%=", value);
  }
}
