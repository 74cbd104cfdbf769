package dev.agentcompute.codemode;

/**
 * One execute request: the program and what the caller brings along.
 *
 * @param source the Starlark program
 * @param confirmation a continuation token from an earlier {@code confirmation required} answer
 *     (execute's {@code confirmation} argument); null or empty for none. It is verified before any
 *     worker starts and never reaches the worker.
 * @param confirmer who can ask a person to confirm a call now; null when nobody can (the call then
 *     ends with {@code confirmation required} and a token)
 * @param observer follows the execution (progress); never null
 */
public record Execution(
    String source, String confirmation, Confirmer confirmer, ExecutionObserver observer) {

  public Execution {
    source = source == null ? "" : source;
    confirmation = confirmation == null ? "" : confirmation;
    observer = observer == null ? ExecutionObserver.NONE : observer;
  }

  public static Execution of(String source) {
    return new Execution(source, "", null, null);
  }

  public Execution withConfirmation(String token) {
    return new Execution(source, token, confirmer, observer);
  }

  public Execution withConfirmer(Confirmer confirmer) {
    return new Execution(source, confirmation, confirmer, observer);
  }

  public Execution withObserver(ExecutionObserver observer) {
    return new Execution(source, confirmation, confirmer, observer);
  }
}
