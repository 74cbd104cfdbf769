package dev.agentcompute.codemode.execution;

import dev.agentcompute.codemode.ExecutionObserver;
import java.util.concurrent.atomic.AtomicLong;

/** What the native calls of one execution share: the confirmation gate and the observer. */
final class CallScope {

  /** For a dispatcher driven without an execution (tests of the call pipeline). */
  static CallScope none() {
    return new CallScope(Confirmations.Gate.NONE, ExecutionObserver.NONE);
  }

  final Confirmations.Gate gate;
  final ExecutionObserver observer;
  private final AtomicLong completed = new AtomicLong();

  CallScope(Confirmations.Gate gate, ExecutionObserver observer) {
    this.gate = gate;
    this.observer = observer;
  }

  long completed() {
    return completed.get();
  }

  /** A call is about to run; tells the observer. */
  void started(String capability) {
    try {
      observer.callStarted(capability, completed.get());
    } catch (RuntimeException ignored) {
      // an observer never changes a result
    }
  }

  /** One more call completed; tells the observer. */
  void completed(String capability) {
    long n = completed.incrementAndGet();
    try {
      observer.callCompleted(capability, n);
    } catch (RuntimeException ignored) {
      // an observer never changes a result
    }
  }
}
