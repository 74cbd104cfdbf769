package dev.agentcompute.incus;

/**
 * Sees every HTTP exchange a client makes (REST calls, operation waits, file and image transfers;
 * not the websocket traffic of exec), e.g. to count Incus calls and their latency. Called on the
 * calling thread after the exchange ends; it must be quick and thread-safe, and whatever it throws
 * is ignored.
 */
@FunctionalInterface
public interface IncusCallObserver {

  /** Observes nothing. */
  IncusCallObserver NONE = (method, path, status, nanos) -> {};

  /**
   * @param method HTTP method
   * @param path request path without its query (e.g. {@code /1.0/instances/c1/state})
   * @param status HTTP status, or 0 when no answer came (unreachable, timed out, cancelled)
   * @param nanos time from sending the request to the end of reading the answer
   */
  void onCall(String method, String path, int status, long nanos);
}
