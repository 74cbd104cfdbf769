package dev.agentcompute.capabilities.catalog;

/** The catalogue file is missing or violates its schema; the message names the entry and key. */
public final class CatalogException extends RuntimeException {
  public CatalogException(String message) {
    super(message);
  }

  public CatalogException(String message, Throwable cause) {
    super(message, cause);
  }
}
