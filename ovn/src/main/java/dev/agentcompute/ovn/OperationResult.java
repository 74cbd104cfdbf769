package dev.agentcompute.ovn;

import java.util.List;
import java.util.Optional;

/**
 * The server's answer to one successful operation: the new row's UUID ({@code insert}), the
 * selected rows ({@code select}), or the number of rows touched ({@code update}, {@code mutate},
 * {@code delete}); {@code wait} and {@code comment} carry nothing.
 */
public record OperationResult(Optional<Uuid> uuid, List<Row> rows, Optional<Long> count) {
  public OperationResult {
    rows = List.copyOf(rows);
  }

  /** The UUID of the inserted row; fails when the operation was not an insert. */
  public Uuid insertedUuid() {
    return uuid.orElseThrow(
        () -> new IllegalStateException("operation result has no uuid: " + this));
  }
}
