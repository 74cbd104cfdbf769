package dev.agentcompute.incus;

import java.time.Duration;

/** {@code /1.0/operations}: look at, wait on and cancel background operations by id. */
public final class Operations {

  private final Rest rest;
  private final Scope scope;

  Operations(Rest rest, Scope scope) {
    this.rest = rest;
    this.scope = scope;
  }

  public Operation get(String id) {
    return rest.get(scope, "/1.0/operations/" + Scope.segment(id), Operation.class);
  }

  /** Waits for the operation to end; see {@link PendingOperation#await(Duration)}. */
  public Operation await(String id, Duration timeout) {
    return new PendingOperation(rest, scope, get(id), "operation " + id).await(timeout);
  }

  public void cancel(String id) {
    rest.cancelOperation(scope, id);
  }
}
