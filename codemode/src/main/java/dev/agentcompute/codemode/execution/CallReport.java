package dev.agentcompute.codemode.execution;

import dev.agentcompute.codemode.CapabilityCall;
import java.util.OptionalDouble;

/** The {@link CapabilityCall} of one native call: progress to the observer, the audited name. */
final class CallReport implements CapabilityCall {

  private final CallScope scope;
  private final String capability;
  private volatile String resource;

  CallReport(CallScope scope, String capability) {
    this.scope = scope;
    this.capability = capability;
  }

  @Override
  public void progress(String message) {
    stage(message, OptionalDouble.empty());
  }

  @Override
  public void progress(String message, double done, double total) {
    stage(
        message,
        total > 0 && done >= 0
            ? OptionalDouble.of(Math.min(1, done / total))
            : OptionalDouble.empty());
  }

  @Override
  public void resource(String name) {
    resource = name;
  }

  String resource() {
    return resource;
  }

  private void stage(String message, OptionalDouble fraction) {
    try {
      scope.observer.stage(capability, scope.completed(), message == null ? "" : message, fraction);
    } catch (RuntimeException ignored) {
      // an observer never changes a result
    }
  }
}
