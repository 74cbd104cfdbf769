package dev.agentcompute.incus;

import com.github.dockerjava.transport.UnixSocket;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.SocketFactory;
import javax.net.ssl.SSLContext;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.DefaultSchemePortResolver;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.DefaultHttpClientConnectionOperator;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.io.HttpClientConnectionManager;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.client5.http.ssl.HostnameVerificationPolicy;
import org.apache.hc.client5.http.ssl.NoopHostnameVerifier;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.pool.PoolReusePolicy;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * One pooled HTTP/1.1 client (Apache HttpClient 5, classic) to one incusd, over its Unix socket or
 * over HTTPS, plus what is needed to dial that daemon's websockets the same way.
 *
 * <p>Every exchange has a deadline and honours its caller's interrupt: a shared watchdog thread
 * aborts the in-flight request (closing its connection) when either fires, because neither a Unix
 * socket channel nor a blocking TLS read notices a timeout or an interrupt on its own.
 */
final class Transport implements AutoCloseable {

  private static final int MAX_CONNECTIONS = 32;
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final long WATCH_PERIOD_MS = 25;
  private static final TimeValue KEEP_ALIVE = TimeValue.ofSeconds(10);

  /**
   * The Unix socket needs no address, but HttpClient resolves the URL's host anyway. A real lookup
   * of "localhost" can stall for tens of seconds where /etc/hosts lacks an IPv6 entry and DNS is
   * unreachable (the AAAA query times out each time the JVM's 30 s cache expires).
   */
  private static final DnsResolver NO_LOOKUP =
      new DnsResolver() {
        @Override
        public InetAddress[] resolve(String host) {
          return new InetAddress[] {InetAddress.getLoopbackAddress()};
        }

        @Override
        public String resolveCanonicalHostname(String host) {
          return host;
        }
      };

  /**
   * An HTTP answer. Header names are lower-cased. The body is read whole, unless the exchange was
   * bounded: then {@code truncated} says the server had more than was kept.
   */
  record Response(int status, Map<String, String> headers, byte[] body, boolean truncated) {
    Response(int status, Map<String, String> headers, byte[] body) {
      this(status, headers, body, false);
    }

    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  private final CloseableHttpClient http;
  private final HttpClientConnectionManager pool;
  private final String httpBase;
  private final String webSocketBase;
  private final SocketFactory webSocketSockets;
  private final ScheduledThreadPoolExecutor watchdog;
  private final String description;
  private final boolean verifyHostname;
  private final IncusCallObserver observer;

  private Transport(
      HttpClientConnectionManager pool,
      String httpBase,
      String webSocketBase,
      SocketFactory webSocketSockets,
      String description,
      boolean verifyHostname,
      IncusCallObserver observer) {
    this.verifyHostname = verifyHostname;
    this.observer = observer;
    this.pool = pool;
    this.httpBase = httpBase;
    this.webSocketBase = webSocketBase;
    this.webSocketSockets = webSocketSockets;
    this.description = description;
    this.http =
        HttpClients.custom()
            .setConnectionManager(pool)
            .disableCookieManagement()
            .disableRedirectHandling()
            .disableAuthCaching()
            .disableContentCompression()
            // incusd drops idle keep-alive connections after about 30 s; never reuse one that old.
            .setKeepAliveStrategy((response, context) -> KEEP_ALIVE)
            .evictIdleConnections(KEEP_ALIVE)
            .setUserAgent("agentcompute-incus-client")
            .build();
    this.watchdog =
        new ScheduledThreadPoolExecutor(
            1,
            runnable -> {
              Thread thread = new Thread(runnable, "incus-client-watchdog");
              thread.setDaemon(true);
              return thread;
            });
    this.watchdog.setRemoveOnCancelPolicy(true);
  }

  /** Talks to incusd over its local Unix socket (no TLS; the kernel vouches for the caller). */
  static Transport unix(Path socket) {
    return unix(socket, IncusCallObserver.NONE);
  }

  /** Like {@link #unix(Path)}, reporting every exchange to {@code observer}. */
  static Transport unix(Path socket, IncusCallObserver observer) {
    String path = socket.toString();
    var operator =
        new DefaultHttpClientConnectionOperator(
            proxy -> UnixSocket.get(path),
            DefaultSchemePortResolver.INSTANCE,
            NO_LOOKUP,
            scheme -> null);
    var pool =
        new PoolingHttpClientConnectionManager(
            operator,
            PoolConcurrencyPolicy.STRICT,
            PoolReusePolicy.LIFO,
            TimeValue.NEG_ONE_MILLISECOND,
            null);
    pool.setMaxTotal(MAX_CONNECTIONS);
    pool.setDefaultMaxPerRoute(MAX_CONNECTIONS);
    // No validate-after-inactivity (HttpClient's default is 2 s): its stale check is a read
    // with a 1 ms socket timeout, which a Unix socket channel ignores, so the check blocks
    // until incusd closes the idle connection (about 30 s). The keep-alive bound retires idle
    // connections before the server does instead.
    pool.setDefaultConnectionConfig(
        ConnectionConfig.custom()
            .setConnectTimeout(Timeout.of(CONNECT_TIMEOUT))
            .setValidateAfterInactivity(TimeValue.NEG_ONE_MILLISECOND)
            .build());
    SocketFactory sockets =
        new SocketFactory() {
          @Override
          public Socket createSocket() throws IOException {
            return UnixSocket.get(path);
          }

          @Override
          public Socket createSocket(String host, int port) {
            throw new UnsupportedOperationException("unix socket factory dials " + path + " only");
          }

          @Override
          public Socket createSocket(
              String host, int port, java.net.InetAddress local, int localPort) {
            throw new UnsupportedOperationException("unix socket factory dials " + path + " only");
          }

          @Override
          public Socket createSocket(java.net.InetAddress host, int port) {
            throw new UnsupportedOperationException("unix socket factory dials " + path + " only");
          }

          @Override
          public Socket createSocket(
              java.net.InetAddress address, int port, java.net.InetAddress local, int localPort) {
            throw new UnsupportedOperationException("unix socket factory dials " + path + " only");
          }
        };
    return new Transport(
        pool, "http://localhost", "ws://localhost", sockets, "unix:" + path, false, observer);
  }

  /**
   * Talks to incusd over HTTPS. With a pinned server certificate the pinning trust manager is the
   * whole check (Incus certificates rarely name the address dialled, so no hostname check); with CA
   * verification the usual hostname check applies.
   */
  static Transport https(URI base, SSLContext tls, boolean pinned) {
    return https(base, tls, pinned, IncusCallObserver.NONE);
  }

  /**
   * Like {@link #https(URI, SSLContext, boolean)}, reporting every exchange to {@code observer}.
   */
  static Transport https(URI base, SSLContext tls, boolean pinned, IncusCallObserver observer) {
    var strategy = ClientTlsStrategyBuilder.create().setSslContext(tls);
    if (pinned) {
      strategy
          .setHostVerificationPolicy(HostnameVerificationPolicy.CLIENT)
          .setHostnameVerifier(NoopHostnameVerifier.INSTANCE);
    }
    var pool =
        PoolingHttpClientConnectionManagerBuilder.create()
            .setTlsSocketStrategy(strategy.buildClassic())
            .setMaxConnTotal(MAX_CONNECTIONS)
            .setMaxConnPerRoute(MAX_CONNECTIONS)
            .setDefaultConnectionConfig(
                ConnectionConfig.custom()
                    .setConnectTimeout(Timeout.of(CONNECT_TIMEOUT))
                    .setValidateAfterInactivity(TimeValue.ofSeconds(2))
                    .build())
            .build();
    String authority = base.getHost() + ":" + (base.getPort() > 0 ? base.getPort() : 8443);
    return new Transport(
        pool,
        "https://" + authority,
        "wss://" + authority,
        tls.getSocketFactory(),
        "https://" + authority,
        !pinned,
        observer);
  }

  String description() {
    return description;
  }

  URI webSocketUri(String pathAndQuery) {
    return URI.create(webSocketBase + pathAndQuery);
  }

  SocketFactory webSocketSockets() {
    return webSocketSockets;
  }

  /** True when TLS peers are checked by CA and hostname (not by a pinned certificate). */
  boolean verifiesHostname() {
    return verifyHostname;
  }

  /**
   * Sends one request and reads the whole answer. Never returns a partial body: an abort by
   * deadline or interrupt throws {@link IncusException.TimedOut} or {@link
   * IncusException.Cancelled}.
   */
  Response exchange(
      String method,
      String pathAndQuery,
      Map<String, String> headers,
      HttpEntity body,
      Duration timeout) {
    return exchange(method, pathAndQuery, headers, body, timeout, Long.MAX_VALUE);
  }

  /**
   * Like {@link #exchange(String, String, Map, HttpEntity, Duration)}, but keeps at most {@code
   * maxBody} bytes of a successful answer: once more arrives, the connection is aborted instead of
   * reading the rest (the answer says {@code truncated}). Error answers are read whole.
   */
  Response exchange(
      String method,
      String pathAndQuery,
      Map<String, String> headers,
      HttpEntity body,
      Duration timeout,
      long maxBody) {
    long started = System.nanoTime();
    int status = 0;
    try {
      Response response = exchangeOnce(method, pathAndQuery, headers, body, timeout, maxBody);
      status = response.status();
      return response;
    } finally {
      observe(method, pathAndQuery, status, System.nanoTime() - started);
    }
  }

  private void observe(String method, String pathAndQuery, int status, long nanos) {
    int query = pathAndQuery.indexOf('?');
    try {
      observer.onCall(
          method, query < 0 ? pathAndQuery : pathAndQuery.substring(0, query), status, nanos);
    } catch (RuntimeException e) {
      // An observer (metrics) must never fail the call it watches.
    }
  }

  private Response exchangeOnce(
      String method,
      String pathAndQuery,
      Map<String, String> headers,
      HttpEntity body,
      Duration timeout,
      long maxBody) {
    String what = method + " " + pathAndQuery;
    Thread caller = Thread.currentThread();
    if (caller.isInterrupted()) {
      throw new IncusException.Cancelled(what + ": cancelled before it was sent");
    }
    HttpUriRequestBase request =
        new HttpUriRequestBase(method, URI.create(httpBase + pathAndQuery));
    headers.forEach(request::setHeader);
    if (body != null) {
      request.setEntity(body);
    }
    request.setConfig(
        RequestConfig.custom().setResponseTimeout(Timeout.of(timeout.plusSeconds(1))).build());
    long deadline = System.nanoTime() + timeout.toNanos();
    AtomicReference<String> abort = new AtomicReference<>();
    ScheduledFuture<?> watch =
        watchdog.scheduleWithFixedDelay(
            () -> {
              if (caller.isInterrupted()) {
                if (abort.compareAndSet(null, "cancelled")) {
                  request.cancel();
                }
              } else if (System.nanoTime() - deadline >= 0
                  && abort.compareAndSet(null, "timed out")) {
                request.cancel();
              }
            },
            WATCH_PERIOD_MS,
            WATCH_PERIOD_MS,
            TimeUnit.MILLISECONDS);
    try (ClassicHttpResponse response = http.executeOpen(null, request, null)) {
      Map<String, String> names = new HashMap<>();
      for (Header header : response.getHeaders()) {
        names.putIfAbsent(header.getName().toLowerCase(Locale.ROOT), header.getValue());
      }
      if (response.getEntity() == null) {
        return new Response(response.getCode(), names, new byte[0]);
      }
      if (maxBody == Long.MAX_VALUE || response.getCode() >= 400) {
        return new Response(
            response.getCode(), names, EntityUtils.toByteArray(response.getEntity()));
      }
      InputStream content = response.getEntity().getContent();
      byte[] kept = content.readNBytes((int) Math.min(maxBody, Integer.MAX_VALUE - 8));
      boolean more = content.read() >= 0;
      if (more) {
        // Hang up rather than let closing the response drain (or reuse) the rest of the body.
        abort.compareAndSet(null, "bounded");
        request.cancel();
        closeQuietly(response);
      }
      return new Response(response.getCode(), names, kept, more);
    } catch (IOException | RuntimeException e) {
      String reason = abort.get();
      if ("cancelled".equals(reason) || caller.isInterrupted()) {
        throw new IncusException.Cancelled(what + ": cancelled by the caller");
      }
      if (reason != null) {
        throw new IncusException.TimedOut(what + ": no answer within " + timeout, timeout);
      }
      if (e instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw Errors.fromIo((IOException) e, what + " (" + description + ")");
    } finally {
      watch.cancel(false);
    }
  }

  /** Reads a successful streamed answer's body while the exchange's deadline is still watched. */
  @FunctionalInterface
  interface BodyReader<T> {
    T read(Response head, InputStream body) throws IOException;
  }

  private static final String READER_FAILED = "reader failed";

  /**
   * The {@link BodyReader} of a streamed exchange failed (not incusd): its cause is the reader's
   * own exception.
   */
  static final class ReaderFailed extends RuntimeException {
    ReaderFailed(Exception cause) {
      super(cause.getMessage(), cause, false, false);
    }
  }

  /** An error answer of a streamed exchange, read whole; {@link Rest} maps it. */
  static final class ErrorAnswer extends RuntimeException {
    private final transient Response response;

    ErrorAnswer(Response response) {
      super("HTTP " + response.status(), null, false, false);
      this.response = response;
    }

    Response response() {
      return response;
    }
  }

  /**
   * Sends one request and hands a successful answer's body to {@code reader} as it arrives, so no
   * more than the reader keeps is ever in memory (file transfers of any size). The deadline and the
   * caller's interrupt are watched until the reader returns; an error answer is read whole and
   * thrown as {@link ErrorAnswer}. A reader that fails (its own sink went away) hangs the
   * connection up instead of draining the rest.
   */
  <T> T stream(
      String method,
      String pathAndQuery,
      Map<String, String> headers,
      HttpEntity body,
      Duration timeout,
      BodyReader<T> reader) {
    long started = System.nanoTime();
    int status = 0;
    String what = method + " " + pathAndQuery;
    Thread caller = Thread.currentThread();
    if (caller.isInterrupted()) {
      throw new IncusException.Cancelled(what + ": cancelled before it was sent");
    }
    HttpUriRequestBase request =
        new HttpUriRequestBase(method, URI.create(httpBase + pathAndQuery));
    headers.forEach(request::setHeader);
    if (body != null) {
      request.setEntity(body);
    }
    request.setConfig(
        RequestConfig.custom().setResponseTimeout(Timeout.of(timeout.plusSeconds(1))).build());
    long deadline = System.nanoTime() + timeout.toNanos();
    AtomicReference<String> abort = new AtomicReference<>();
    ScheduledFuture<?> watch =
        watchdog.scheduleWithFixedDelay(
            () -> {
              if (caller.isInterrupted()) {
                if (abort.compareAndSet(null, "cancelled")) {
                  request.cancel();
                }
              } else if (System.nanoTime() - deadline >= 0
                  && abort.compareAndSet(null, "timed out")) {
                request.cancel();
              }
            },
            WATCH_PERIOD_MS,
            WATCH_PERIOD_MS,
            TimeUnit.MILLISECONDS);
    try (ClassicHttpResponse response = http.executeOpen(null, request, null)) {
      status = response.getCode();
      Map<String, String> names = new HashMap<>();
      for (Header header : response.getHeaders()) {
        names.putIfAbsent(header.getName().toLowerCase(Locale.ROOT), header.getValue());
      }
      if (response.getCode() >= 400) {
        byte[] error =
            response.getEntity() == null
                ? new byte[0]
                : EntityUtils.toByteArray(response.getEntity());
        throw new ErrorAnswer(new Response(response.getCode(), names, error));
      }
      InputStream content =
          response.getEntity() == null
              ? InputStream.nullInputStream()
              : response.getEntity().getContent();
      try {
        return reader.read(new Response(response.getCode(), names, new byte[0]), content);
      } catch (IOException | RuntimeException e) {
        abort.compareAndSet(null, READER_FAILED);
        request.cancel();
        closeQuietly(response);
        throw e instanceof IOException io ? new ReaderFailed(io) : new ReaderFailed(e);
      }
    } catch (ErrorAnswer | ReaderFailed e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      String reason = abort.get();
      if ("cancelled".equals(reason) || caller.isInterrupted()) {
        throw new IncusException.Cancelled(what + ": cancelled by the caller");
      }
      if ("timed out".equals(reason)) {
        throw new IncusException.TimedOut(what + ": not finished within " + timeout, timeout);
      }
      if (e instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw Errors.fromIo((IOException) e, what + " (" + description + ")");
    } finally {
      watch.cancel(false);
      observe(method, pathAndQuery, status, System.nanoTime() - started);
    }
  }

  /** Closing an aborted answer may fail on the dead connection; the kept part is already read. */
  private static void closeQuietly(ClassicHttpResponse response) {
    try {
      response.close();
    } catch (IOException | RuntimeException e) {
      // nothing left to release
    }
  }

  @Override
  public void close() {
    watchdog.shutdownNow();
    http.close(CloseMode.GRACEFUL);
    try {
      pool.close();
    } catch (IOException e) {
      // Closing idle pooled sockets cannot fail in a way the caller could act on.
    }
  }
}
