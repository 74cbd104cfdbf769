package dev.agentcompute.ovn;

/** Every failure of the OVSDB client: connection, timeout, a server error, a failed transaction. */
public abstract sealed class OvsdbException extends RuntimeException
    permits OvsdbConnectionException,
        OvsdbTimeoutException,
        OvsdbRpcException,
        OvsdbTransactionException {
  OvsdbException(String message, Throwable cause) {
    super(message, cause);
  }
}
