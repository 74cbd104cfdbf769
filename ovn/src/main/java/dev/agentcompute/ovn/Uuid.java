package dev.agentcompute.ovn;

import java.util.Objects;
import java.util.regex.Pattern;

/** An OVSDB row UUID; encoded on the wire as {@code ["uuid","<value>"]}. */
public record Uuid(String value) implements Comparable<Uuid> {
  private static final Pattern FORMAT =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  public Uuid {
    Objects.requireNonNull(value, "value");
    if (!FORMAT.matcher(value).matches()) {
      throw new IllegalArgumentException("not an OVSDB uuid: '" + value + "'");
    }
  }

  @Override
  public int compareTo(Uuid other) {
    return value.compareTo(other.value);
  }

  @Override
  public String toString() {
    return value;
  }
}
