package dev.agentcompute.ovn;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waiting for an answer with the request timeout, failures as this module's exceptions. */
final class Replies {
  private Replies() {}

  /**
   * The answer; {@link OvsdbTimeoutException} when none comes in time, {@link
   * CancellationException} when the caller is interrupted, the server's own {@link OvsdbException}
   * as it is, anything else as a connection failure.
   *
   * @param what names the request in messages ({@code ovsdb transact on tcp:127.0.0.1:6641})
   */
  static <T> T await(CompletableFuture<T> future, Duration timeout, String what) {
    try {
      return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      future.cancel(false);
      throw new OvsdbTimeoutException(what + " got no answer within " + timeout.toMillis() + " ms");
    } catch (InterruptedException e) {
      future.cancel(false);
      Thread.currentThread().interrupt();
      throw new CancellationException("interrupted while waiting for " + what);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof OvsdbException failure) {
        throw failure;
      }
      throw new OvsdbConnectionException(what + " failed: " + e.getCause(), e.getCause());
    }
  }
}
