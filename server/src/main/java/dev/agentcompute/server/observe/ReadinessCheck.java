package dev.agentcompute.server.observe;

import java.util.Map;

/**
 * One dependency the server needs to do useful work (the Incus connection, the OVN northbound
 * database when configured, the compute generation in force). The server's wiring adapts other
 * modules' probes into these; /health/ready is up only when every registered check is.
 */
public interface ReadinessCheck {
  /** Short stable name shown in /health, e.g. {@code incus}. */
  String name();

  /** Probes the dependency; throwing counts as down with the exception's message. */
  Result check() throws Exception;

  /** Whether the dependency is usable, with details safe to show (no secrets). */
  record Result(boolean up, Map<String, Object> details) {
    public Result {
      details = Map.copyOf(details);
    }

    public static Result up(Map<String, Object> details) {
      return new Result(true, details);
    }

    public static Result down(String reason) {
      return new Result(false, Map.of("error", reason));
    }
  }
}
