package dev.agentcompute.server.observe;

import dev.agentcompute.incus.IncusCallObserver;
import java.time.Duration;
import java.util.Set;

/**
 * Counts every Incus call the server's client makes (readiness probes and all compute work) in
 * {@link ServerMetrics#incusCall}. The operation is the method and the path with object names
 * replaced by {@code {name}}, so the number of series stays bounded whatever agents create. At
 * {@code log_level: debug} each call is also one record of ours (method, path, status, duration),
 * which replaces the HTTP client's wire log that {@link Logging} keeps out.
 */
public final class IncusCallMetrics implements IncusCallObserver {
  private static final Log LOG = Log.of(IncusCallMetrics.class);

  /** Path segments that are part of the Incus API itself; every other segment is an object name. */
  private static final Set<String> API_WORDS =
      Set.of(
          "1.0",
          "instances",
          "snapshots",
          "files",
          "state",
          "exec",
          "console",
          "logs",
          "metadata",
          "backups",
          "images",
          "aliases",
          "export",
          "secret",
          "refresh",
          "networks",
          "leases",
          "forwards",
          "peers",
          "network-acls",
          "network-allocations",
          "network-zones",
          "profiles",
          "projects",
          "storage-pools",
          "volumes",
          "custom",
          "operations",
          "wait",
          "websocket",
          "certificates",
          "cluster",
          "members",
          "events",
          "resources",
          "warnings");

  private final ServerMetrics metrics;

  public IncusCallMetrics(ServerMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public void onCall(String method, String path, int status, long nanos) {
    metrics.incusCall(method + " " + template(path), outcome(status), Duration.ofNanos(nanos));
    LOG.debug(
        "incus call",
        "method",
        method,
        "path",
        path,
        "status",
        status,
        "duration_ms",
        Duration.ofNanos(nanos).toMillis());
  }

  /**
   * {@code /1.0/instances/c1/snapshots/s0} becomes {@code /1.0/instances/{name}/snapshots/{name}}.
   */
  static String template(String path) {
    StringBuilder out = new StringBuilder();
    for (String segment : path.split("/")) {
      if (segment.isEmpty()) {
        continue;
      }
      out.append('/').append(API_WORDS.contains(segment) ? segment : "{name}");
    }
    return out.isEmpty() ? "/" : out.toString();
  }

  /** {@code ok} for any success, otherwise the class of failure (0 = no answer at all). */
  static String outcome(int status) {
    return switch (status) {
      case 0 -> "unreachable";
      case 404 -> "not_found";
      case 409 -> "conflict";
      case 412 -> "precondition_failed";
      case 401, 403 -> "forbidden";
      default -> status < 400 ? "ok" : status >= 500 ? "server_error" : "client_error";
    };
  }
}
