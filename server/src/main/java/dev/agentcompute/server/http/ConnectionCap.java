package dev.agentcompute.server.http;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * HTTP/1.1 connections with a cap: the connection past {@code max} open ones is answered 503 naming
 * the limit and closed. Helidon's own {@code maxTcpConnections} only stops accepting, so a client
 * past it waits in the kernel's backlog without an answer; it stays set (at twice the cap) as the
 * backstop for connections that never send a byte and so never reach this selector.
 */
final class ConnectionCap implements ServerConnectionSelector {
  private final ServerConnectionSelector http1;
  private final HeaderDeadline deadline;
  private final int max;
  private final AtomicInteger open = new AtomicInteger();

  ConnectionCap(int max, HeaderDeadline deadline) {
    this.max = max;
    this.deadline = deadline;
    this.http1 =
        Http1ConnectionSelector.builder()
            .config(Http1Config.builder().addReceiveListener(deadline).build())
            .build();
  }

  int open() {
    return open.get();
  }

  @Override
  public int bytesToIdentifyConnection() {
    return http1.bytesToIdentifyConnection();
  }

  @Override
  public Support supports(BufferData data) {
    return http1.supports(data);
  }

  @Override
  public Set<String> supportedApplicationProtocols() {
    return http1.supportedApplicationProtocols();
  }

  @Override
  public ServerConnection connection(ConnectionContext ctx) {
    return new Counted(http1.connection(ctx), ctx);
  }

  /** One connection, counted while it is handled. */
  private final class Counted implements ServerConnection {
    private final ServerConnection delegate;
    private final ConnectionContext ctx;

    Counted(ServerConnection delegate, ConnectionContext ctx) {
      this.delegate = delegate;
      this.ctx = ctx;
    }

    @Override
    public void handle(Limit limit) throws InterruptedException {
      if (open.incrementAndGet() > max) {
        open.decrementAndGet();
        RawRefusal.send(
            ctx,
            503,
            "Service Unavailable",
            "the server already has "
                + max
                + " open connections (limit "
                + FrontDoor.MAX_CONNECTIONS
                + " = "
                + max
                + ")");
        return;
      }
      try {
        delegate.handle(limit);
      } finally {
        open.decrementAndGet();
        deadline.forget(ctx);
      }
    }

    @Override
    public void handle(Semaphore requestSemaphore) throws InterruptedException {
      handle(io.helidon.common.concurrency.limits.FixedLimit.create(requestSemaphore));
    }

    @Override
    public Duration idleTime() {
      return delegate.idleTime();
    }

    @Override
    public void close(boolean interrupt) {
      delegate.close(interrupt);
    }
  }
}
