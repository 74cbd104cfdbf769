package dev.agentcompute.server.errors;

/**
 * Everything that stops the server from starting or a command from succeeding. Messages are meant
 * for operators: they name what was wrong and never contain a bearer token.
 */
public abstract sealed class ServerException extends RuntimeException
    permits ConfigException, CredentialException, UsageException, StartupException {

  ServerException(String message) {
    super(message, null, false, false);
  }

  ServerException(String message, Throwable cause) {
    super(message, cause, false, false);
  }
}
