package dev.agentcompute.starlark.syntax;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A static error (scan, parse or resolve) in a Starlark file. {@link #errors()} holds every error
 * found, each with its position; the message is one {@code FILE:LINE:COL: msg} line per error.
 */
public final class SyntaxError extends Exception {
  /** One static error at a position. */
  public record Item(Position pos, String msg) {
    @Override
    public String toString() {
      return pos + ": " + msg;
    }
  }

  private final List<Item> errors;

  public SyntaxError(List<Item> errors) {
    super(
        errors.stream().map(Item::toString).collect(Collectors.joining("\n")), null, false, false);
    this.errors = List.copyOf(errors);
  }

  public SyntaxError(Position pos, String msg) {
    this(List.of(new Item(pos, msg)));
  }

  public List<Item> errors() {
    return errors;
  }
}
