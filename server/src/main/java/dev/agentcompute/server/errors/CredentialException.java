package dev.agentcompute.server.errors;

/**
 * The bearer tokens file is unreadable or malformed. The message is one of the fixed texts of
 * docs/configuration.md#bearer-credential-file (all contain "bearer") and never includes a token.
 */
public final class CredentialException extends ServerException {
  public CredentialException(String message) {
    super(message);
  }
}
