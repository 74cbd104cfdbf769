package dev.agentcompute.codemode;

import java.util.Objects;
import java.util.Optional;

/**
 * The only exception CodeMode's public operations throw. {@link #failure()} is the classification;
 * {@link #safeDetail()} is model-derived text that may be shown to the client (parse positions,
 * binding diagnostics, sanitized {@link AgentError} messages) and exists only for {@link
 * Failure#allowsSafeDetail()} classes. {@link #getMessage()} is {@code "<text>"} or {@code "<text>:
 * <detail>"}. Registration failures carry a host-side diagnostic in the message instead (never sent
 * to clients).
 */
public final class CodeModeException extends Exception {

  private final Failure failure;
  private final String safeDetail;
  private final boolean deadlineExceeded;
  private final PendingConfirmation pending;
  private final String explanation;

  private CodeModeException(
      Failure failure, String safeDetail, String message, boolean deadlineExceeded) {
    this(failure, safeDetail, message, deadlineExceeded, null, null);
  }

  private CodeModeException(
      Failure failure,
      String safeDetail,
      String message,
      boolean deadlineExceeded,
      PendingConfirmation pending) {
    this(failure, safeDetail, message, deadlineExceeded, pending, null);
  }

  private CodeModeException(
      Failure failure,
      String safeDetail,
      String message,
      boolean deadlineExceeded,
      PendingConfirmation pending,
      String explanation) {
    super(message, null, false, false);
    this.failure = failure;
    this.safeDetail = safeDetail;
    this.deadlineExceeded = deadlineExceeded;
    this.pending = pending;
    this.explanation = explanation;
  }

  /** The largest explanation a client sees, in UTF-8 bytes (longer ones are cut). */
  public static final int MAX_EXPLANATION_BYTES = 512;

  /**
   * This failure with {@code text}, what an agent should fix, kept aside: clients see it only from
   * {@link #guided} (servers built with agent guidance). A failure that has one keeps it.
   */
  public CodeModeException explain(String text) {
    if (text == null || text.isEmpty() || explanation != null || pending != null) {
      return this;
    }
    return new CodeModeException(
        failure, safeDetail, getMessage(), deadlineExceeded, pending, text);
  }

  /** What an agent should fix, when a failure site knew it. */
  public Optional<String> explanation() {
    return Optional.ofNullable(explanation);
  }

  /**
   * The failure as a server with agent guidance shows it: the explanation (sanitized, at most
   * {@value #MAX_EXPLANATION_BYTES} bytes) replaces the original detail, and {@code alreadyRan}
   * (the state-changing calls that succeeded first, empty for none) follows as {@code before this:
   * ...}. Confirmation failures and registration failures are returned unchanged: their texts are
   * complete already.
   */
  public CodeModeException guided(String alreadyRan) {
    if (pending != null
        || failure == Failure.INVALID_REGISTRATION
        || failure == Failure.CONFIRMATION_REQUIRED) {
      return this;
    }
    String detail =
        explanation != null ? AgentError.sanitize(explanation, MAX_EXPLANATION_BYTES) : safeDetail;
    if (alreadyRan != null && !alreadyRan.isEmpty()) {
      detail = (detail == null ? "" : detail + "; ") + "before this: " + alreadyRan;
    }
    if (detail == null || detail.equals(safeDetail)) {
      return this;
    }
    return new CodeModeException(
        failure, detail, failure.text() + ": " + detail, deadlineExceeded, null, explanation);
  }

  /** A bare classification. */
  public static CodeModeException of(Failure failure) {
    return new CodeModeException(Objects.requireNonNull(failure), null, failure.text(), false);
  }

  /**
   * A classification with a safe detail; the detail is dropped for classes that do not allow one.
   */
  public static CodeModeException withDetail(Failure failure, String detail) {
    if (detail == null || detail.isEmpty() || !failure.allowsSafeDetail()) {
      return of(failure);
    }
    return new CodeModeException(failure, detail, failure.text() + ": " + detail, false);
  }

  /** {@code resource limit exceeded} caused by the execution deadline. */
  public static CodeModeException deadline() {
    return new CodeModeException(Failure.RESOURCE_LIMIT, null, Failure.RESOURCE_LIMIT.text(), true);
  }

  /** {@code invalid registration: <diagnostic>} (host-side text, never shown to clients). */
  public static CodeModeException invalidRegistration(String diagnostic) {
    return new CodeModeException(
        Failure.INVALID_REGISTRATION,
        null,
        Failure.INVALID_REGISTRATION.text() + ": " + diagnostic,
        false);
  }

  /**
   * Several registration diagnostics, each {@code invalid registration: <diagnostic>}, one per
   * line.
   */
  public static CodeModeException invalidRegistration(java.util.List<String> diagnostics) {
    StringBuilder b = new StringBuilder();
    for (String d : diagnostics) {
      if (!b.isEmpty()) {
        b.append('\n');
      }
      b.append(Failure.INVALID_REGISTRATION.text()).append(": ").append(d);
    }
    return new CodeModeException(Failure.INVALID_REGISTRATION, null, b.toString(), false);
  }

  /**
   * {@code confirmation required: <name>(<args>) needs approval; ...}: the call that needs a
   * person's approval, with the token that approves it (docs/reference/policy.md#confirmations).
   */
  public static CodeModeException confirmationRequired(PendingConfirmation pending) {
    String text =
        Failure.CONFIRMATION_REQUIRED.text()
            + ": "
            + pending.capability()
            + "("
            + pending.arguments()
            + ") needs approval; if the user agrees, run execute again with confirmation \""
            + pending.token()
            + "\" (valid until "
            + java.time.format.DateTimeFormatter.ISO_INSTANT.format(pending.expiresAt())
            + "). Calls made before this one already ran.";
    return new CodeModeException(Failure.CONFIRMATION_REQUIRED, null, text, false, pending);
  }

  /** The call awaiting approval, for {@link Failure#CONFIRMATION_REQUIRED}. */
  public Optional<PendingConfirmation> pendingConfirmation() {
    return Optional.ofNullable(pending);
  }

  public Failure failure() {
    return failure;
  }

  public Optional<String> safeDetail() {
    return Optional.ofNullable(safeDetail);
  }

  /** True when a resource-limit failure came from the execution deadline. */
  public boolean deadlineExceeded() {
    return deadlineExceeded;
  }

  /** The text a client may see: the classification plus safe detail when allowed. */
  public String clientText() {
    if (pending != null) {
      return getMessage();
    }
    return safeDetail == null ? failure.text() : failure.text() + ": " + safeDetail;
  }
}
