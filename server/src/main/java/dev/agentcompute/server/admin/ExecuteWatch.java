package dev.agentcompute.server.admin;

import dev.agentcompute.codemode.ExecutionObserver;
import java.util.concurrent.CompletableFuture;

/**
 * What the transport hands an MCP request so an execute on it can be watched and stopped: it sees
 * every native call start and end (the call in progress, for the list of running executes) and
 * holds the request's "caller gone" signal, whose completion cancels the execution's context, so
 * CodeMode kills its worker as when the client disconnects.
 */
public final class ExecuteWatch implements ExecutionObserver {
  private final CompletableFuture<Void> callerGone;
  private volatile String currentCall = "";
  private volatile long callsCompleted;

  public ExecuteWatch(CompletableFuture<Void> callerGone) {
    this.callerGone = callerGone;
  }

  @Override
  public void callStarted(String capability, long completed) {
    currentCall = capability;
    callsCompleted = completed;
  }

  @Override
  public void callCompleted(String capability, long completed) {
    currentCall = "";
    callsCompleted = completed;
  }

  /** The capability of the native call in progress, empty between calls. */
  public String currentCall() {
    return currentCall;
  }

  public long callsCompleted() {
    return callsCompleted;
  }

  /** Ends the request's execution as if its caller had gone; false if it had ended already. */
  public boolean cancel() {
    return callerGone.complete(null);
  }
}
