package dev.agentcompute.incus;

import java.time.Duration;

/**
 * A background operation the server has accepted. {@link #await} blocks until it ends (or the
 * timeout passes, or the calling thread is interrupted); {@link #cancel} asks the server to stop
 * it.
 */
public final class PendingOperation {

  private final Rest rest;
  private final Scope scope;
  private final Operation started;
  private final String request;

  PendingOperation(Rest rest, Scope scope, Operation started, String request) {
    this.rest = rest;
    this.scope = scope;
    this.started = started;
    this.request = request;
  }

  public String id() {
    return started.id();
  }

  /** The operation as the server described it when it was created. */
  public Operation started() {
    return started;
  }

  /** Waits up to the client's default operation timeout. */
  public Operation await() {
    return await(rest.operationTimeout());
  }

  /**
   * Waits until the operation ends. Returns it on success; throws the mapped failure when it failed
   * or was cancelled, {@link IncusException.TimedOut} when {@code timeout} passes first (the
   * operation keeps running), {@link IncusException.Cancelled} on interrupt.
   */
  public Operation await(Duration timeout) {
    Operation last = rest.waitOperation(scope, started.id(), timeout, request);
    if (last.succeeded()) {
      return last;
    }
    if (last.statusCode() == 401) {
      throw new IncusException.Cancelled(request + ": operation " + last.id() + " was cancelled");
    }
    throw Errors.fromOperationFailure(last.err(), request);
  }

  /** Asks the server to cancel the operation (only cancellable operations honour it). */
  public void cancel() {
    rest.cancelOperation(scope, started.id());
  }
}
