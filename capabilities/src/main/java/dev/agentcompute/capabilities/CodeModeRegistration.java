package dev.agentcompute.capabilities;

import dev.agentcompute.capabilities.compute.AgentFacingException;
import dev.agentcompute.capabilities.compute.BackendException;
import dev.agentcompute.codemode.AgentError;
import dev.agentcompute.codemode.Builder;
import dev.agentcompute.codemode.Capability;
import dev.agentcompute.codemode.Context;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Registers compute capabilities with a CodeMode builder. Agent-facing errors become
 * {@link AgentError} ({@code capability failed: <message>}); backend failures become a bare
 * {@code capability failed} and are logged; a cancelled request context interrupts the handler so the
 * gate wait and Incus I/O stop promptly.
 */
public final class CodeModeRegistration {
  private static final Logger LOG = Logger.getLogger(CodeModeRegistration.class.getName());

  private CodeModeRegistration() {}

  /** Registers every definition (see {@link ComputeRuntime#capabilities()}). */
  public static Builder register(Builder builder, List<CapabilityDefinition<?, ?>> definitions) {
    for (CapabilityDefinition<?, ?> definition : definitions) {
      builder.register(adapt(definition));
    }
    return builder;
  }

  /** Why a backend call failed, without backend internals: CodeMode shows {@code capability failed}. */
  static final class CapabilityFailure extends Exception {
    CapabilityFailure(String capability, Throwable cause) {
      super(capability + " failed", cause);
    }
  }

  private static <I extends Record, O extends Record> Capability<I, O> adapt(CapabilityDefinition<I, O> definition) {
    return Capability.named(definition.name(), definition.input(), definition.output())
        .summary(definition.summary())
        .searchTerms(definition.searchTerms().toArray(String[]::new))
        .handler((ctx, subject, input) -> invoke(ctx, definition, subject.id(), input));
  }

  private static <I extends Record, O extends Record> O invoke(Context ctx, CapabilityDefinition<I, O> definition,
      String subject, I input) throws Exception {
    Thread worker = Thread.currentThread();
    CompletableFuture<Void> interrupter = ctx.done().thenRun(worker::interrupt);
    try {
      return definition.handler().apply(subject, input);
    } catch (AgentFacingException e) {
      throw new AgentError(e.getMessage(), e);
    } catch (BackendException e) {
      LOG.log(e.kind() == BackendException.Kind.UNAVAILABLE ? Level.WARNING : Level.SEVERE,
          "backend operation failed op=" + definition.name() + " err=" + e.getMessage(), e);
      throw new CapabilityFailure(definition.name(), e);
    } catch (CancellationException e) {
      throw new CapabilityFailure(definition.name(), e);
    } finally {
      interrupter.cancel(false);
      if (ctx.isDone()) {
        Thread.interrupted();
      }
    }
  }
}
