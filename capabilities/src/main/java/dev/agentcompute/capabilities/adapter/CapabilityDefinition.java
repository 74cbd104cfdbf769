package dev.agentcompute.capabilities.adapter;

import java.util.List;

/**
 * One compute capability, independent of the CodeMode engine: name, discovery text, typed record
 * input and output, and the handler. {@link CodeModeRegistration#register} turns each into a
 * CodeMode registration. Record component names are the Starlark keyword names (hence snake_case).
 *
 * @param description what describe_api teaches; empty for {@link CapabilityDocs}'s text without
 *     this server's configured values ({@link CapabilityDocs#of(String,
 *     dev.agentcompute.capabilities.config.ComputeConfig)} gives it with them)
 */
public record CapabilityDefinition<I extends Record, O extends Record>(
    String name,
    String summary,
    List<String> searchTerms,
    Class<I> input,
    Class<O> output,
    Operation<I, O> handler,
    String description) {

  public CapabilityDefinition {
    searchTerms = List.copyOf(searchTerms);
    description = description == null ? "" : description;
  }

  /** A definition described by {@link CapabilityDocs}'s text. */
  public CapabilityDefinition(
      String name,
      String summary,
      List<String> searchTerms,
      Class<I> input,
      Class<O> output,
      Operation<I, O> handler) {
    this(name, summary, searchTerms, input, output, handler, "");
  }

  /** The same capability described by {@code value}. */
  public CapabilityDefinition<I, O> withDescription(String value) {
    return new CapabilityDefinition<>(name, summary, searchTerms, input, output, handler, value);
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
