package dev.agentcompute.server.admin;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The admin API under {@code /admin} (docs/operations.md#administration): JSON over the MCP
 * listener, for operators only ({@link AdminAccess}); every refusal is a JSON {@code error} that
 * says what to do.
 */
final class AdminRoutes {
  static final String PREFIX = "/admin";
  static final int DEFAULT_AUDIT_LIMIT = 100;

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final AdminService service;
  private final AdminAccess access;

  AdminRoutes(AdminService service, AdminAccess access) {
    this.service = service;
    this.access = access;
  }

  void register(HttpRouting.Builder routing) {
    routing
        .get(
            PREFIX + "/sandboxes",
            (req, res) -> answer(req, res, op -> AdminJson.sandboxes(service.sandboxes())))
        .post(
            PREFIX + "/sandboxes/{name}/extend",
            (req, res) ->
                answer(
                    req,
                    res,
                    op -> AdminJson.extended(service.extend(op, name(req), durationOf(req)))))
        .delete(
            PREFIX + "/sandboxes/{name}",
            (req, res) ->
                answer(
                    req,
                    res,
                    op -> {
                      service.delete(op, name(req));
                      return Map.of("deleted", name(req));
                    }))
        .get(
            PREFIX + "/executes",
            (req, res) -> answer(req, res, op -> AdminJson.executes(service.executes())))
        .post(
            PREFIX + "/executes/{id}/cancel",
            (req, res) ->
                answer(
                    req,
                    res,
                    op -> {
                      String id = req.path().pathParameters().get("id");
                      service.cancel(op, id);
                      return Map.of("canceled", id);
                    }))
        .post(
            PREFIX + "/tokens/reload",
            (req, res) -> answer(req, res, op -> AdminJson.reloaded(service.reloadTokens(op))))
        .get(
            PREFIX + "/audit",
            (req, res) ->
                answer(
                    req,
                    res,
                    op ->
                        AdminJson.audit(
                            service.audit(query(req, "subject"), limit(query(req, "limit"))))))
        .any(
            PREFIX + "/*",
            (req, res) ->
                send(
                    res,
                    404,
                    AdminJson.error(
                        "no admin route "
                            + req.prologue().method().text()
                            + " "
                            + req.path().path()
                            + "; see docs/operations.md#administration")));
  }

  private void answer(
      ServerRequest req, ServerResponse res, Function<String, Map<String, Object>> action) {
    try {
      String operator =
          access.operator(AdminAccess.bearer(req.headers().first(HeaderNames.AUTHORIZATION)));
      send(res, 200, action.apply(operator));
    } catch (AdminException e) {
      if (e.status() == 401) {
        res.header(HeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"agentcompute\"");
      }
      send(res, e.status(), AdminJson.error(e.getMessage()));
    }
  }

  private static void send(ServerResponse res, int status, Map<String, Object> body) {
    res.status(Status.create(status));
    res.header(HeaderNames.CONTENT_TYPE, "application/json");
    res.header(HeaderNames.CACHE_CONTROL, "no-store");
    res.send(JSON.writeValueAsString(body));
  }

  private static String name(ServerRequest req) {
    return req.path().pathParameters().get("name");
  }

  /** {@code {"duration": "2h"}}. */
  private static String durationOf(ServerRequest req) {
    String body = req.content().hasEntity() ? req.content().as(String.class) : "";
    try {
      if (JSON.readTree(body.isBlank() ? "{}" : body).get("duration")
              instanceof tools.jackson.databind.JsonNode d
          && d.isString()) {
        return d.asString();
      }
    } catch (JacksonException e) {
      throw new AdminException(400, "the body must be JSON: {\"duration\": \"2h\"}");
    }
    throw new AdminException(400, "send {\"duration\": \"2h\"} (90m, 2h, 1h30m or minutes)");
  }

  private static Optional<String> query(ServerRequest req, String key) {
    return req.query().contains(key) ? Optional.of(req.query().get(key)) : Optional.empty();
  }

  static int limit(Optional<String> text) {
    if (text.isEmpty() || text.get().isBlank()) {
      return DEFAULT_AUDIT_LIMIT;
    }
    try {
      return Integer.parseInt(text.get().strip());
    } catch (NumberFormatException e) {
      throw new AdminException(
          400, "limit must be a whole number between 1 and " + AdminService.MAX_AUDIT_LIMIT);
    }
  }
}
