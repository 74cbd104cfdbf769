package dev.agentcompute.incus;

import java.net.URI;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The front door to one Incus daemon, over its local Unix socket or over HTTPS with a client
 * certificate. Thread-safe; connections are pooled. {@link #inProject} and {@link #onTarget} return
 * views that share the connection pool and add {@code ?project=} / {@code ?target=} to every call
 * they make. Close the client you built (closing a view closes the shared pool too).
 *
 * <p>Every call is bounded: plain requests by the request timeout, background operations by the
 * operation timeout (or the timeout given to {@link PendingOperation#await(Duration)}), exec by its
 * deadline. Interrupting the calling thread cancels the call with {@link IncusException.Cancelled}.
 */
public final class IncusClient implements AutoCloseable {

  private final Rest rest;
  private final Scope scope;

  private IncusClient(Rest rest, Scope scope) {
    this.rest = rest;
    this.scope = scope;
  }

  /**
   * A client for the daemon listening on {@code socket} (e.g. {@code /var/lib/incus/unix.socket}).
   */
  public static Builder unixSocket(Path socket) {
    return new Builder(Objects.requireNonNull(socket, "socket"), null, null);
  }

  /** A client for {@code https://host:port} authenticating with {@code identity}. */
  public static Builder https(URI url, IncusIdentity identity) {
    if (!"https".equals(url.getScheme())) {
      throw new IllegalArgumentException(
          "Incus remote URL must be https://host[:port], got " + url);
    }
    return new Builder(null, url, Objects.requireNonNull(identity, "identity"));
  }

  /** A view of this client that works in {@code project} (null or empty = the daemon's default). */
  public IncusClient inProject(String project) {
    return new IncusClient(rest, new Scope(project, scope.target()));
  }

  /**
   * A view of this client that targets cluster member {@code member} (null = let the server pick).
   */
  public IncusClient onTarget(String member) {
    return new IncusClient(rest, new Scope(scope.project(), member));
  }

  public String project() {
    return scope.project();
  }

  public String target() {
    return scope.target();
  }

  /** Where this client connects ({@code unix:/path} or {@code https://host:port}). */
  public String endpoint() {
    return rest.transport().description();
  }

  /** {@code GET /1.0}. */
  public ServerInfo info() {
    return server().info();
  }

  public Server server() {
    return new Server(rest);
  }

  public Projects projects() {
    return new Projects(rest);
  }

  public Instances instances() {
    return new Instances(rest, scope);
  }

  public Snapshots snapshots() {
    return new Snapshots(rest, scope);
  }

  public Files files() {
    return new Files(rest, scope);
  }

  public Images images() {
    return new Images(rest, scope);
  }

  public Networks networks() {
    return new Networks(rest, scope);
  }

  public NetworkAcls networkAcls() {
    return new NetworkAcls(rest, scope);
  }

  public Profiles profiles() {
    return new Profiles(rest, scope);
  }

  public StoragePools storagePools() {
    return new StoragePools(rest, scope);
  }

  public Cluster cluster() {
    return new Cluster(rest);
  }

  public Operations operations() {
    return new Operations(rest, scope);
  }

  @Override
  public void close() {
    rest.close();
  }

  /** Configures and builds an {@link IncusClient}. */
  public static final class Builder {

    private final Path socket;
    private final URI url;
    private final IncusIdentity identity;
    private X509Certificate pinnedServer;
    private List<X509Certificate> authorities;
    private Duration requestTimeout = Duration.ofSeconds(30);
    private Duration operationTimeout = Duration.ofMinutes(5);
    private String project;
    private String target;
    private IncusCallObserver observer = IncusCallObserver.NONE;

    private Builder(Path socket, URI url, IncusIdentity identity) {
      this.socket = socket;
      this.url = url;
      this.identity = identity;
    }

    /** HTTPS: trust exactly this server certificate (inline PEM or a file path). */
    public Builder pinnedServerCertificate(String pemOrPath) {
      this.pinnedServer =
          Pem.certificates(Pem.inlineOrFile(pemOrPath, "server certificate"), "server certificate")
              .getFirst();
      return this;
    }

    /**
     * HTTPS: verify the server against these CA certificates and its hostname (inline PEM or a file
     * path).
     */
    public Builder trustedAuthorities(String pemOrPath) {
      this.authorities =
          Pem.certificates(Pem.inlineOrFile(pemOrPath, "CA certificates"), "CA certificates");
      return this;
    }

    /** Bound on one plain request (default 30 s). */
    public Builder requestTimeout(Duration timeout) {
      this.requestTimeout = positive(timeout, "request timeout");
      return this;
    }

    /** Default bound on waiting for a background operation (default 5 min). */
    public Builder operationTimeout(Duration timeout) {
      this.operationTimeout = positive(timeout, "operation timeout");
      return this;
    }

    public Builder project(String name) {
      this.project = name;
      return this;
    }

    public Builder target(String member) {
      this.target = member;
      return this;
    }

    /**
     * Reports every HTTP exchange (method, path, status, nanoseconds), e.g. to count Incus calls.
     */
    public Builder onCall(IncusCallObserver callObserver) {
      this.observer = Objects.requireNonNull(callObserver, "observer");
      return this;
    }

    public IncusClient build() {
      Transport transport;
      if (socket != null) {
        transport = Transport.unix(socket, observer);
      } else {
        if (pinnedServer == null && authorities == null) {
          throw new IllegalArgumentException(
              "HTTPS to " + url + " needs a pinned server certificate or trusted CA certificates");
        }
        transport =
            Transport.https(
                url,
                TlsContexts.create(identity, pinnedServer, authorities),
                pinnedServer != null,
                observer);
      }
      return new IncusClient(
          new Rest(transport, requestTimeout, operationTimeout), new Scope(project, target));
    }

    private static Duration positive(Duration d, String what) {
      if (d == null || d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(what + " must be positive, got " + d);
      }
      return d;
    }
  }
}
