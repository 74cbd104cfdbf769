package dev.agentcompute.ovn;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A reference, inside one transaction, to a row inserted by an earlier {@code insert} operation
 * that declared the same {@code uuid-name}; encoded as {@code ["named-uuid","<name>"]}.
 */
public record NamedUuid(String name) {
  private static final Pattern ID = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  public NamedUuid {
    Objects.requireNonNull(name, "name");
    if (!ID.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "a named-uuid must be an <id> ([a-zA-Z_][a-zA-Z0-9_]*), got '" + name + "'");
    }
  }
}
