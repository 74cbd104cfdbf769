package dev.agentcompute.server.admin;

/** An admin request refused or failed, with the HTTP status and a message that says what to do. */
public final class AdminException extends RuntimeException {
  private final int status;

  public AdminException(int status, String message) {
    super(message);
    this.status = status;
  }

  public int status() {
    return status;
  }
}
