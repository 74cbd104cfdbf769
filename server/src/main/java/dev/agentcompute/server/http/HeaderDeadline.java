package dev.agentcompute.server.http;

import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.Http1ConnectionListener;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The header read timeout: a request whose headers have not all arrived {@code timeout} after its
 * request line gets 408 and its connection is closed, as Go's {@code ReadHeaderTimeout} closes it.
 * Helidon's idle-connection timeout already cuts a connection whose request line does not arrive;
 * it stops counting once the request line is read, so without this a client that sends one header
 * byte every few seconds held its connection (and a virtual thread) forever.
 */
final class HeaderDeadline implements Http1ConnectionListener {
  private static final Logger LOG = System.getLogger(HeaderDeadline.class.getName());

  private final Map<ConnectionContext, Long> readingHeadersSince = new ConcurrentHashMap<>();
  private final Duration timeout;
  private final LongSupplier nanoClock;

  HeaderDeadline(Duration timeout, LongSupplier nanoClock) {
    this.timeout = timeout;
    this.nanoClock = nanoClock;
  }

  @Override
  public void prologue(ConnectionContext ctx, HttpPrologue prologue) {
    readingHeadersSince.put(ctx, nanoClock.getAsLong());
  }

  @Override
  public void headers(ConnectionContext ctx, Headers headers) {
    readingHeadersSince.remove(ctx);
  }

  /** The connection ended. */
  void forget(ConnectionContext ctx) {
    readingHeadersSince.remove(ctx);
  }

  /** Refuses and closes every connection past its deadline; called periodically. */
  int sweep() {
    long cutoff = nanoClock.getAsLong() - timeout.toNanos();
    int closed = 0;
    for (Map.Entry<ConnectionContext, Long> e : readingHeadersSince.entrySet()) {
      if (e.getValue() - cutoff < 0 && readingHeadersSince.remove(e.getKey(), e.getValue())) {
        ConnectionContext ctx = e.getKey();
        try {
          RawRefusal.send(
              ctx,
              408,
              "Request Timeout",
              "request headers did not arrive within "
                  + timeout.toSeconds()
                  + " s (limit "
                  + FrontDoor.HEADER_TIMEOUT
                  + " = "
                  + timeout.toSeconds()
                  + ")");
        } catch (RuntimeException ignored) {
          // The client may be gone already; closing is what matters.
        }
        ctx.serverSocket().close();
        closed++;
      }
    }
    if (closed > 0) {
      LOG.log(Level.INFO, "closed connections whose headers were too slow count=" + closed);
    }
    return closed;
  }
}
