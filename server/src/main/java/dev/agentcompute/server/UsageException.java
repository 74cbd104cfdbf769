package dev.agentcompute.server;

/** The command line or an AGENTCOMPUTE_* environment variable is invalid. */
public final class UsageException extends ServerException {
  UsageException(String message) {
    super(message);
  }
}
