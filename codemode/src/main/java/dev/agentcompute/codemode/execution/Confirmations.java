package dev.agentcompute.codemode.execution;

import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.ConfirmationPrompt;
import dev.agentcompute.codemode.Confirmer;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Failure;
import dev.agentcompute.codemode.PendingConfirmation;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.catalog.Entry;
import dev.agentcompute.codemode.protocol.Values;
import dev.agentcompute.codemode.tokens.NonceLedger;
import dev.agentcompute.codemode.tokens.TokenKind;
import dev.agentcompute.codemode.tokens.TokenSigner;
import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Confirmation continuations (docs/reference/policy.md#confirmations), on the host: the token
 * execute was given is verified before any worker starts, and each call that needs a person's
 * approval passes the gate after EXECUTE authorization and before its handler. The worker never
 * sees a token.
 */
final class Confirmations {

  private final TokenSigner signer;
  private final NonceLedger ledger;
  private final InstantSource clock;
  private final String generation;
  private final Policy policy;
  private final Duration maxWait;

  Confirmations(
      TokenSigner signer,
      NonceLedger ledger,
      InstantSource clock,
      String generation,
      Policy policy,
      Duration maxWait) {
    this.signer = signer;
    this.ledger = ledger;
    this.clock = clock;
    this.generation = generation;
    this.policy = policy;
    this.maxWait = maxWait;
  }

  /** A verified continuation token: which call it approves and its single-use nonce. */
  record Presented(String capabilityId, String argumentsDigest, String nonce, long expires) {}

  /**
   * Verifies execute's {@code confirmation} argument (MAC, expiry, kind, scope, generation, unused
   * nonce); null when none was given. Every failure reads {@code invalid confirmation}.
   */
  Presented verify(Context ctx, Subject subject, String token) throws CodeModeException {
    if (token == null || token.isEmpty()) {
      return null;
    }
    Map<String, Object> p =
        signer.verifyOr(
            Failure.INVALID_CONFIRMATION,
            TokenKind.CONFIRMATION,
            token,
            () -> policy.scopeKey(ctx, subject),
            generation,
            clock.instant());
    if (!(p.get("c") instanceof String c)
        || !(p.get("a") instanceof String a)
        || ledger.isUsed((String) p.get("n"))) {
      throw CodeModeException.of(Failure.INVALID_CONFIRMATION);
    }
    return new Presented(c, a, (String) p.get("n"), (Long) p.get("exp"));
  }

  /** The gate of one execution. */
  Gate gate(
      Context ctx,
      Subject subject,
      Presented presented,
      Confirmer confirmer,
      Context.PausableTimeout timer) {
    return new ExecutionGate(ctx, subject, presented, confirmer, timer);
  }

  /** Lets a call that needs a person's approval through, or fails it. */
  interface Gate {
    /** For a dispatcher that cannot confirm anything (tests of the rest of the pipeline). */
    Gate NONE =
        (entry, canonical) -> {
          throw CodeModeException.of(Failure.CONFIRMATION_REQUIRED);
        };

    void pass(Entry entry, Map<String, Object> canonical) throws CodeModeException;
  }

  private final class ExecutionGate implements Gate {
    private final Context ctx;
    private final Subject subject;
    private final Confirmer confirmer;
    private final Context.PausableTimeout timer;
    private Presented presented;

    ExecutionGate(
        Context ctx,
        Subject subject,
        Presented presented,
        Confirmer confirmer,
        Context.PausableTimeout timer) {
      this.ctx = ctx;
      this.subject = subject;
      this.presented = presented;
      this.confirmer = confirmer;
      this.timer = timer;
    }

    @Override
    public void pass(Entry entry, Map<String, Object> canonical) throws CodeModeException {
      String digest = argumentsDigest(canonical);
      if (presented != null) {
        // One token approves one call: the first gated call must be the one it names.
        Presented p = presented;
        presented = null;
        if (!p.capabilityId().equals(entry.id())
            || !p.argumentsDigest().equals(digest)
            || !ledger.consume(p.nonce(), p.expires(), clock.instant())) {
          throw CodeModeException.of(Failure.INVALID_CONFIRMATION);
        }
        return;
      }
      String arguments = ConfirmationText.arguments(canonical);
      if (confirmer != null) {
        ConfirmationPrompt prompt =
            new ConfirmationPrompt(
                entry.name(),
                arguments,
                entry.summary(),
                "Allow " + entry.name() + "(" + arguments + ")? " + entry.summary());
        boolean approved;
        try (Context.Registration paused = timer.pause()) {
          approved = ask(prompt);
        }
        if (ctx.isDone()) {
          throw Executor.contextFailure(ctx);
        }
        if (!approved) {
          throw CodeModeException.of(Failure.CONFIRMATION_DECLINED);
        }
        return;
      }
      String scopeKey = Access.scopeKey(policy, ctx, subject);
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("c", entry.id());
      fields.put("a", digest);
      TokenSigner.Signed token =
          signer.sign(TokenKind.CONFIRMATION, scopeKey, generation, clock.instant(), fields);
      throw CodeModeException.confirmationRequired(
          new PendingConfirmation(token.token(), entry.name(), arguments, token.expiresAt()));
    }

    /** The person's answer; false for a decline, a failure, or no answer within the wait. */
    private boolean ask(ConfirmationPrompt prompt) {
      CompletableFuture<Boolean> answer = new CompletableFuture<>();
      Thread asking =
          Thread.ofVirtual()
              .name("codemode-confirmation")
              .start(
                  () -> {
                    try {
                      answer.complete(confirmer.confirm(ctx, prompt));
                    } catch (Throwable t) {
                      answer.complete(false);
                    }
                  });
      try (Context.Registration r = ctx.onDone(() -> answer.complete(false))) {
        return Boolean.TRUE.equals(answer.get(maxWait.toMillis(), TimeUnit.MILLISECONDS));
      } catch (TimeoutException | ExecutionException e) {
        return false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      } finally {
        asking.interrupt();
      }
    }
  }

  /** {@code a}: SHA-256 of the canonical arguments as sorted-key JSON. */
  static String argumentsDigest(Map<String, Object> canonical) throws CodeModeException {
    try {
      return TokenSigner.digest(Values.encode(canonical));
    } catch (Values.InvalidValue e) {
      throw CodeModeException.of(Failure.INTERNAL);
    }
  }
}
