package dev.agentcompute.incus;

import java.io.IOException;
import java.util.List;
import java.util.Locale;

/** Maps HTTP statuses, Incus error texts and I/O failures onto {@link IncusException} subtypes. */
final class Errors {

  /**
   * Texts that mean "the backend could not be reached", as the Go original's mapError recognises
   * them.
   */
  private static final List<String> UNAVAILABLE_TEXTS =
      List.of(
          "unable to connect",
          "connection refused",
          "connection reset",
          "no such host",
          "i/o timeout",
          "network is unreachable",
          "no route to host",
          // A cluster member that does not answer, as the member that forwards the request says it
          // (the request names an instance or operation there) or as a member still starting says.
          "missing event connection with target cluster member",
          "peer node", // "peer node 10.213.0.12:8443 is down": a cluster-wide change needs it
          "server isn't ready yet");

  /**
   * Texts that mean "it already exists". Incus 6.0 answers some duplicate creations (projects,
   * instances inside their operation, a cluster network created twice) with a 500 carrying the
   * database's constraint error or its own sentence rather than a 409; callers that create
   * idempotently need to see those as conflicts.
   */
  private static final List<String> CONFLICT_TEXTS =
      List.of(
          "already exists",
          "unique constraint failed",
          // a cluster network: defined twice on one member (409), or created already (500)
          "is already defined on member",
          "the network is already created",
          "network is not in pending state");

  private Errors() {}

  static IncusException fromStatus(int status, String serverMessage, String request) {
    String message =
        request
            + ": "
            + (serverMessage == null || serverMessage.isBlank() ? "HTTP " + status : serverMessage);
    return switch (status) {
      case 404 -> new IncusException.NotFound(message);
      case 409 -> new IncusException.Conflict(message);
      case 412 -> new IncusException.PreconditionFailed(message);
      case 401, 403 -> new IncusException.Forbidden(status, message);
      case 502, 503, 504 -> new IncusException.Unavailable(status, message, null);
      default ->
          looksUnavailable(serverMessage)
              ? new IncusException.Unavailable(status, message, null)
              : looksLikeConflict(serverMessage)
                  ? new IncusException.Conflict(message)
                  : new IncusException.Failed(status, message, null);
    };
  }

  /** A background operation that ended in Failure: no HTTP status, only the server's text. */
  static IncusException fromOperationFailure(String err, String request) {
    String message = request + ": " + (err == null || err.isBlank() ? "operation failed" : err);
    if (looksUnavailable(err)) {
      return new IncusException.Unavailable(0, message, null);
    }
    return looksLikeConflict(err)
        ? new IncusException.Conflict(message)
        : new IncusException.Failed(0, message, null);
  }

  static IncusException fromIo(IOException e, String request) {
    return new IncusException.Unavailable(0, request + ": backend unavailable: " + e, e);
  }

  static boolean looksLikeConflict(String text) {
    return text != null
        && CONFLICT_TEXTS.stream().anyMatch(text.toLowerCase(Locale.ROOT)::contains);
  }

  static boolean looksUnavailable(String text) {
    if (text == null) {
      return false;
    }
    String lower = text.toLowerCase(Locale.ROOT);
    return UNAVAILABLE_TEXTS.stream().anyMatch(lower::contains);
  }
}
