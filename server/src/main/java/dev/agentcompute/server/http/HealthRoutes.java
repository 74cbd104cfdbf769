package dev.agentcompute.server.http;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code /health}, {@code /health/live} and {@code /health/ready} in the MicroProfile Health shape
 * ({@code {"status":"UP","checks":[{"name":..,"status":..,"data":{..}}]}}; 200 when every check is
 * up, 503 otherwise).
 *
 * <p>Serialized here rather than by Helidon's health observer: from Helidon 4.5 on its writer
 * renders a nested detail map as a string, and clients read nested details (each readiness
 * dependency's status and details).
 */
final class HealthRoutes {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** One named check; {@code liveness} ones answer /health/live, the others /health/ready. */
  record Check(String name, boolean liveness, Supplier<Result> call) {}

  /** A check's answer: up or down, and the details safe to show. */
  record Result(boolean up, Map<String, Object> data) {}

  private final List<Check> checks;

  HealthRoutes(List<Check> checks) {
    this.checks = List.copyOf(checks);
  }

  void register(HttpRouting.Builder routing) {
    routing.get("/health", (req, res) -> answer(res, checks));
    routing.get(
        "/health/live",
        (req, res) -> answer(res, checks.stream().filter(Check::liveness).toList()));
    routing.get(
        "/health/ready",
        (req, res) -> answer(res, checks.stream().filter(c -> !c.liveness()).toList()));
  }

  private static void answer(ServerResponse res, List<Check> selected) {
    boolean allUp = true;
    List<Map<String, Object>> entries = new ArrayList<>();
    for (Check check : selected) {
      Result result;
      try {
        result = check.call().get();
      } catch (RuntimeException e) {
        result = new Result(false, Map.of("error", String.valueOf(e.getMessage())));
      }
      allUp &= result.up();
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("name", check.name());
      entry.put("status", result.up() ? "UP" : "DOWN");
      if (!result.data().isEmpty()) {
        entry.put("data", result.data());
      }
      entries.add(entry);
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", allUp ? "UP" : "DOWN");
    body.put("checks", entries);
    res.status(allUp ? Status.OK_200 : Status.SERVICE_UNAVAILABLE_503)
        .header(HeaderNames.CACHE_CONTROL, "no-store")
        .header(HeaderNames.CONTENT_TYPE, "application/json")
        .send(JSON.writeValueAsBytes(body));
  }
}
