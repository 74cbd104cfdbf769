package dev.agentcompute.capabilities.adapter;

import dev.agentcompute.capabilities.model.AgentFacingException;
import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.Progress;
import dev.agentcompute.codemode.AgentError;
import dev.agentcompute.codemode.Builder;
import dev.agentcompute.codemode.Capability;
import dev.agentcompute.codemode.CapabilityCall;
import dev.agentcompute.codemode.Context;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

/**
 * Registers compute capabilities with a CodeMode builder. Agent-facing errors become {@link
 * AgentError} ({@code capability failed: <message>}); backend failures become a bare {@code
 * capability failed} and are logged; a cancelled request context interrupts the handler so the gate
 * wait and Incus I/O stop promptly.
 */
public final class CodeModeRegistration {
  private static final Logger LOG = System.getLogger(CodeModeRegistration.class.getName());

  private CodeModeRegistration() {}

  /** Registers every definition (see {@link ComputeRuntime#capabilities()}). */
  public static Builder register(Builder builder, List<CapabilityDefinition<?, ?>> definitions) {
    for (CapabilityDefinition<?, ?> definition : definitions) {
      builder.register(adapt(definition));
    }
    return builder;
  }

  /**
   * Why a backend call failed, without backend internals: CodeMode shows {@code capability failed}.
   */
  static final class CapabilityFailure extends Exception {
    CapabilityFailure(String capability, Throwable cause) {
      super(capability + " failed", cause);
    }
  }

  private static <I extends Record, O extends Record> Capability<I, O> adapt(
      CapabilityDefinition<I, O> definition) {
    CapabilityDocs.Doc doc = CapabilityDocs.of(definition.name());
    return Capability.named(definition.name(), definition.input(), definition.output())
        .summary(definition.summary())
        .description(
            definition.description().isEmpty() ? doc.description() : definition.description())
        .searchTerms(searchTerms(definition.searchTerms(), doc.searchTerms()))
        .hints(CapabilityHints.of(definition.name()))
        .handler((ctx, subject, input) -> invoke(ctx, definition, subject.id(), input));
  }

  /** The definition's terms, then the doc's, without repeats (CodeMode allows at most 16). */
  static String[] searchTerms(List<String> own, List<String> more) {
    java.util.LinkedHashSet<String> terms = new java.util.LinkedHashSet<>(own);
    terms.addAll(more);
    return terms.toArray(String[]::new);
  }

  /**
   * The sandbox a call acts on, for its audit record: the {@code sandbox} argument, or {@code name}
   * for the sandbox.* capabilities that take one. Only the name, never other argument values.
   */
  static Optional<String> sandboxOf(String capability, Record input) {
    String component = capability.startsWith("sandbox.") ? "name" : "sandbox";
    for (RecordComponent c : input.getClass().getRecordComponents()) {
      if (c.getName().equals(component)) {
        try {
          Object value = c.getAccessor().invoke(input);
          if (value instanceof Optional<?> o) {
            value = o.orElse(null);
          }
          return value instanceof String name && !name.isEmpty()
              ? Optional.of(name)
              : Optional.empty();
        } catch (ReflectiveOperationException e) {
          return Optional.empty();
        }
      }
    }
    return Optional.empty();
  }

  private static <I extends Record, O extends Record> O invoke(
      Context ctx, CapabilityDefinition<I, O> definition, String subject, I input)
      throws Exception {
    Thread worker = Thread.currentThread();
    CompletableFuture<Void> interrupter = ctx.done().thenRun(worker::interrupt);
    CapabilityCall call = CapabilityCall.of(ctx);
    sandboxOf(definition.name(), input).ifPresent(call::resource);
    Thread ticker = StillRunning.start(call, definition.name());
    try {
      return Progress.reportingTo(call::progress, () -> definition.handler().apply(subject, input));
    } catch (AgentFacingException e) {
      throw new AgentError(e.getMessage(), e);
    } catch (BackendException e) {
      LOG.log(
          e.kind() == BackendException.Kind.UNAVAILABLE ? Level.WARNING : Level.ERROR,
          "backend operation failed op=" + definition.name() + " err=" + e.getMessage(),
          e);
      if (e.agentText().isPresent()) {
        throw new AgentError(e.agentText().get(), new CapabilityFailure(definition.name(), e));
      }
      throw new CapabilityFailure(definition.name(), e);
    } catch (CancellationException e) {
      throw new CapabilityFailure(definition.name(), e);
    } finally {
      if (ticker != null) {
        ticker.interrupt();
      }
      interrupter.cancel(false);
      if (ctx.isDone()) {
        Thread.interrupted();
      }
    }
  }
}
