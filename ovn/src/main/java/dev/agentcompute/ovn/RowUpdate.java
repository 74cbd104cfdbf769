package dev.agentcompute.ovn;

import java.util.Optional;

/**
 * How one row changed (RFC 7047 §4.1.6): insert = only {@code after}; delete = only {@code before};
 * modify = both, where {@code before} holds only the changed columns' old values and {@code after}
 * the whole new row. Both carry the row's {@code _uuid}.
 */
public record RowUpdate(Uuid uuid, Optional<Row> before, Optional<Row> after) {
  public boolean isInsert() {
    return before.isEmpty() && after.isPresent();
  }

  public boolean isDelete() {
    return before.isPresent() && after.isEmpty();
  }

  public boolean isModify() {
    return before.isPresent() && after.isPresent();
  }
}
