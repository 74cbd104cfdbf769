package dev.agentcompute.ovn;

/** The server answered a JSON-RPC request (other than a failed transaction) with an error. */
public final class OvsdbRpcException extends OvsdbException {
  private final String method;
  private final String error;
  private final String details;

  OvsdbRpcException(String method, String error, String details) {
    super(
        "ovsdb " + method + " failed: " + error + (details.isEmpty() ? "" : " (" + details + ")"),
        null);
    this.method = method;
    this.error = error;
    this.details = details;
  }

  public String method() {
    return method;
  }

  /** The server's short error string, e.g. {@code unknown database}. */
  public String error() {
    return error;
  }

  /** The server's details, or empty. */
  public String details() {
    return details;
  }
}
