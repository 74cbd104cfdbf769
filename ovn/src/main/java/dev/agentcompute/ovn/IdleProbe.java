package dev.agentcompute.ovn;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Watches one connection until it closes: after a quiet probe interval it sends {@code echo}, and a
 * server that does not answer within another interval has its connection dropped (so a dead peer
 * behind a silent network is noticed, not waited on forever).
 */
final class IdleProbe {
  private final OvsdbEndpoint endpoint;
  private final long probeNanos;

  IdleProbe(OvsdbEndpoint endpoint, Duration interval) {
    this.endpoint = endpoint;
    this.probeNanos = interval.toNanos();
  }

  /** Returns why the connection closed; an interrupt closes it. */
  OvsdbConnectionException keepAlive(JsonRpcConnection connection) {
    while (true) {
      try {
        try {
          return connection.closedFuture().get(probeNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException quiet) {
          if (connection.nanosSinceLastReceive() >= probeNanos) {
            probe(connection);
          }
        }
      } catch (InterruptedException e) {
        connection.close();
        return connection.closedFuture().join();
      } catch (ExecutionException impossible) {
        throw new IllegalStateException(impossible);
      }
    }
  }

  private void probe(JsonRpcConnection connection) throws InterruptedException {
    CompletableFuture<JsonNode> reply =
        connection.request("echo", JsonNodeFactory.instance.arrayNode().add("probe")).result();
    try {
      reply.get(probeNanos, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      reply.cancel(false);
      connection.close(
          new OvsdbConnectionException(
              "ovsdb "
                  + endpoint
                  + " did not answer an echo within "
                  + TimeUnit.NANOSECONDS.toMillis(probeNanos)
                  + " ms; dropping the connection"));
    } catch (ExecutionException e) {
      // the connection closed meanwhile; keepAlive sees it next
    }
  }
}
