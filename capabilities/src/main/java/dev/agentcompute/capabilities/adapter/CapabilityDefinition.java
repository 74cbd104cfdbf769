package dev.agentcompute.capabilities.adapter;

import java.util.List;

/**
 * One compute capability, independent of the CodeMode engine: name, discovery text, typed record
 * input and output, and the handler. {@link CodeModeRegistration#register} turns each into a
 * CodeMode registration. Record component names are the Starlark keyword names (hence snake_case).
 */
public record CapabilityDefinition<I extends Record, O extends Record>(
    String name,
    String summary,
    List<String> searchTerms,
    Class<I> input,
    Class<O> output,
    Operation<I, O> handler) {

  public CapabilityDefinition {
    searchTerms = List.copyOf(searchTerms);
  }

  /** The typed handler: the authenticated subject's id and the bound input. */
  @FunctionalInterface
  public interface Operation<I, O> {
    O apply(String subject, I input);
  }

  /** Calls the handler with an untyped input (the adapter's bridge). */
  @SuppressWarnings("unchecked")
  public O invoke(String subject, Object input) {
    // Every sandbox lookup inside the call sees who is asking (owner isolation).
    return ScopedValue.where(
            dev.agentcompute.capabilities.service.SandboxAccess.CALLER,
            subject == null ? "" : subject)
        .call(() -> handler.apply(subject, (I) input));
  }
}
