package dev.agentcompute.codemode;

/**
 * The native call a handler is serving, reachable from its context ({@link #of(Context)}): what it
 * may tell the host while it runs. Progress reaches an MCP client that asked for progress as
 * progress notifications; the resource name goes into the call's audit record.
 */
public interface CapabilityCall {

  /** Where the dispatcher puts the call in the handler's context. */
  Context.Key<CapabilityCall> KEY = new Context.Key<>("codemode.capability-call");

  /** Reports nothing: outside a native call (a handler called directly, in a unit test). */
  CapabilityCall NONE =
      new CapabilityCall() {
        @Override
        public void progress(String message) {}

        @Override
        public void progress(String message, double done, double total) {}

        @Override
        public void resource(String name) {}
      };

  /** The call {@code ctx} belongs to, or {@link #NONE}. */
  static CapabilityCall of(Context ctx) {
    return ctx.value(KEY).orElse(NONE);
  }

  /** A stage of the work, e.g. {@code waiting for the instance to start}. */
  void progress(String message);

  /** A stage with a measure: {@code done} of {@code total} units. */
  void progress(String message, double done, double total);

  /**
   * Names what the call acts on (a sandbox name) for the audit record. Only names: never argument
   * values, never secrets or tokens.
   */
  void resource(String name);
}
