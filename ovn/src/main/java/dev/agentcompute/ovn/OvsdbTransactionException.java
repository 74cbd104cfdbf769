package dev.agentcompute.ovn;

/**
 * A {@code transact} was rejected: one operation failed (the whole transaction was rolled back) or
 * the commit failed. Carries the server's error string and details.
 */
public final class OvsdbTransactionException extends OvsdbException {
  private final int operationIndex;
  private final String operation;
  private final String error;
  private final String details;

  OvsdbTransactionException(int operationIndex, String operation, String error, String details) {
    super(describe(operationIndex, operation, error, details), null);
    this.operationIndex = operationIndex;
    this.operation = operation;
    this.error = error;
    this.details = details;
  }

  private static String describe(int index, String operation, String error, String details) {
    String where = index < 0 ? "the commit" : "operation " + index + " (" + operation + ")";
    return "ovsdb transaction failed at "
        + where
        + ": "
        + error
        + (details.isEmpty() ? "" : " (" + details + ")");
  }

  /** Index of the failed operation, or -1 when the commit itself failed. */
  public int operationIndex() {
    return operationIndex;
  }

  /** The failed operation's {@code op} name, or {@code commit}. */
  public String operation() {
    return operation;
  }

  /**
   * The server's error string, e.g. {@code constraint violation}, {@code referential integrity
   * violation}.
   */
  public String error() {
    return error;
  }

  public String details() {
    return details;
  }
}
