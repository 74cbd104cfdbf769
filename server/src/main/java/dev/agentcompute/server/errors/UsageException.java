package dev.agentcompute.server.errors;

/** The command line or an AGENTCOMPUTE_* environment variable is invalid. */
public final class UsageException extends ServerException {
  public UsageException(String message) {
    super(message);
  }
}
