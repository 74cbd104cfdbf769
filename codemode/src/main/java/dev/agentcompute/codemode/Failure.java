package dev.agentcompute.codemode;

/** The public classification of every CodeMode failure, with its fixed client-facing text. */
public enum Failure {
  INVALID_REGISTRATION("invalid registration"),
  UNAUTHENTICATED("unauthenticated"),
  NOT_FOUND("capability not found"),
  INVALID_PROGRAM("invalid program"),
  INVALID_ARGUMENTS("invalid capability arguments"),
  PERMISSION_DENIED("permission denied"),
  POLICY_FAILURE("authorization policy failure"),
  RESOURCE_LIMIT("resource limit exceeded"),
  CAPABILITY_FAILURE("capability failed"),
  INTERNAL("internal failure"),
  /** The request context was canceled. */
  CANCELED("context canceled"),
  /**
   * A search or resource list cursor failed verification (an invalid-arguments-class failure);
   * start over without it.
   */
  INVALID_CURSOR("invalid cursor"),
  /**
   * A confirmation token failed verification, was used already, or does not match the call it
   * reached (an invalid-arguments-class failure); run execute again without it.
   */
  INVALID_CONFIRMATION("invalid confirmation"),
  /**
   * A call needs a person's confirmation and none could be asked: {@link
   * CodeModeException#pendingConfirmation()} carries the token that approves it.
   */
  CONFIRMATION_REQUIRED("confirmation required"),
  /** The person declined the call, or did not answer in time. */
  CONFIRMATION_DECLINED("confirmation declined"),
  /** A resource is unknown or hidden from this caller (MCP -32002). */
  RESOURCE_NOT_FOUND("Resource not found"),
  /** A resource is visible to this caller but reading it was denied (MCP -32002). */
  RESOURCE_NOT_READABLE("resource not readable");

  private final String text;

  Failure(String text) {
    this.text = text;
  }

  /** The exact text clients see, e.g. {@code resource limit exceeded}. */
  public String text() {
    return text;
  }

  /** Whether this class may carry a model-derived safe detail. */
  public boolean allowsSafeDetail() {
    return this == INVALID_PROGRAM || this == INVALID_ARGUMENTS || this == CAPABILITY_FAILURE;
  }
}
