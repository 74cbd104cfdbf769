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
    CANCELED("context canceled");

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
