package dev.agentcompute.server.admin;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The operators' console at {@code /console}: server-rendered pages over {@link AdminService}, with
 * plain forms for the actions (each answered by a redirect back to the page, so a reload never
 * repeats one).
 *
 * <p>The browser presents the operator's token in a cookie set by the sign-in form: {@code
 * HttpOnly} (no script can read it, and the page has none), {@code SameSite=Strict} (another site
 * cannot make the browser post a form with it), {@code Path=/console} (never sent to /mcp). It
 * holds the token itself, not a server-side session, so revoking the token in the token file ends
 * the console's access at the next request, as it does for the API. POSTs from another origin are
 * refused as well.
 */
final class ConsoleRoutes {
  static final String PREFIX = "/console";
  static final String COOKIE = "agentcompute_console";
  static final int AUDIT_ROWS = 50;
  static final String CSP =
      "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self';"
          + " frame-ancestors 'none'; base-uri 'none'";

  private final AdminService service;
  private final AdminAccess access;

  ConsoleRoutes(AdminService service, AdminAccess access) {
    this.service = service;
    this.access = access;
  }

  void register(HttpRouting.Builder routing) {
    routing
        .get(PREFIX, this::page)
        .post(PREFIX + "/login", this::login)
        .post(PREFIX + "/logout", this::logout)
        .post(
            PREFIX + "/sandboxes/{name}/extend",
            (req, res) ->
                action(
                    req,
                    res,
                    (op, form) -> {
                      String name = req.path().pathParameters().get("name");
                      AdminService.Extended e =
                          service.extend(op, name, form.getOrDefault("duration", ""));
                      return e.kept()
                          ? "sandbox " + name + " already lives until " + e.expiresAt() + ": kept"
                          : "sandbox " + name + " now expires at " + e.expiresAt();
                    }))
        .post(
            PREFIX + "/sandboxes/{name}/delete",
            (req, res) ->
                action(
                    req,
                    res,
                    (op, form) -> {
                      String name = req.path().pathParameters().get("name");
                      service.delete(op, name);
                      return "sandbox " + name + " deleted";
                    }))
        .post(
            PREFIX + "/executes/{id}/cancel",
            (req, res) ->
                action(
                    req,
                    res,
                    (op, form) -> {
                      String id = req.path().pathParameters().get("id");
                      service.cancel(op, id);
                      return "execute " + id + " canceled";
                    }))
        .post(
            PREFIX + "/tokens/reload",
            (req, res) ->
                action(
                    req,
                    res,
                    (op, form) -> {
                      var r = service.reloadTokens(op);
                      return "tokens reloaded: "
                          + r.identities().size()
                          + " identities"
                          + (r.revoked().isEmpty()
                              ? ""
                              : ", revoked " + String.join(", ", r.revoked()));
                    }));
  }

  private void page(ServerRequest req, ServerResponse res) {
    String operator;
    try {
      operator = access.operator(token(req));
    } catch (AdminException e) {
      refusal(res, e);
      return;
    }
    Optional<String> subject = query(req, "subject").filter(s -> !s.isBlank());
    Optional<String> error = query(req, "error");
    List<AdminService.SandboxView> sandboxes = List.of();
    try {
      sandboxes = service.sandboxes();
    } catch (RuntimeException e) {
      // The rest of the page (executes, audit) still helps while Incus does not answer.
      error = Optional.of("the sandboxes cannot be listed: " + e.getMessage());
    }
    String html =
        ConsolePage.render(
            new ConsolePage.Model(
                operator,
                service.now(),
                sandboxes,
                service.executes(),
                service.audit(subject, AUDIT_ROWS),
                subject,
                query(req, "notice"),
                error,
                cookieToken(req).isPresent()));
    html(res, 200, html);
  }

  private void refusal(ServerResponse res, AdminException e) {
    if (e.status() == 401 && access.tokensRequired()) {
      html(res, 401, ConsolePage.login(token0Sent(e)));
    } else {
      html(res, e.status(), ConsolePage.refused(e.getMessage()));
    }
  }

  /** The sign-in page shows why only when a token was sent (not on a first visit). */
  private static Optional<String> token0Sent(AdminException e) {
    return e.getMessage().startsWith("invalid") ? Optional.of(e.getMessage()) : Optional.empty();
  }

  private void login(ServerRequest req, ServerResponse res) {
    if (!sameOrigin(req, res)) {
      return;
    }
    String token = form(req).getOrDefault("token", "").strip();
    try {
      access.operator(Optional.of(token));
    } catch (AdminException e) {
      html(
          res,
          e.status(),
          e.status() == 403
              ? ConsolePage.refused(e.getMessage())
              : ConsolePage.login(Optional.of(e.getMessage())));
      return;
    }
    String value =
        Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(token.getBytes(StandardCharsets.UTF_8));
    res.header(
        HeaderNames.SET_COOKIE,
        COOKIE + "=" + value + "; Path=" + PREFIX + "; HttpOnly; SameSite=Strict");
    redirect(res, PREFIX);
  }

  private void logout(ServerRequest req, ServerResponse res) {
    if (!sameOrigin(req, res)) {
      return;
    }
    res.header(
        HeaderNames.SET_COOKIE,
        COOKIE + "=; Path=" + PREFIX + "; HttpOnly; SameSite=Strict; Max-Age=0");
    redirect(res, PREFIX);
  }

  private void action(
      ServerRequest req, ServerResponse res, BiFunction<String, Map<String, String>, String> work) {
    if (!sameOrigin(req, res)) {
      return;
    }
    String operator;
    try {
      operator = access.operator(token(req));
    } catch (AdminException e) {
      refusal(res, e);
      return;
    }
    Map<String, String> form = form(req);
    try {
      redirect(
          res,
          PREFIX
              + "?notice="
              + URLEncoder.encode(work.apply(operator, form), StandardCharsets.UTF_8));
    } catch (AdminException e) {
      redirect(res, PREFIX + "?error=" + URLEncoder.encode(e.getMessage(), StandardCharsets.UTF_8));
    }
  }

  /**
   * A POST whose {@code Origin} names another site is refused (with SameSite=Strict this is the
   * second guard against cross-site forms); browsers send Origin on every form POST.
   */
  private boolean sameOrigin(ServerRequest req, ServerResponse res) {
    Optional<String> origin = req.headers().first(HeaderNames.ORIGIN);
    Optional<String> host = req.headers().first(HeaderNames.HOST);
    if (origin.isEmpty()) {
      return true;
    }
    String o = origin.get();
    int scheme = o.indexOf("://");
    String originHost = scheme < 0 ? o : o.substring(scheme + 3);
    if (host.isPresent() && originHost.equalsIgnoreCase(host.get())) {
      return true;
    }
    html(
        res,
        403,
        ConsolePage.refused("cross-origin form refused: post from the console's own page"));
    return false;
  }

  private Optional<String> token(ServerRequest req) {
    Optional<String> bearer = AdminAccess.bearer(req.headers().first(HeaderNames.AUTHORIZATION));
    return bearer.isPresent() ? bearer : cookieToken(req);
  }

  private static Optional<String> cookieToken(ServerRequest req) {
    for (String header : req.headers().values(HeaderNames.COOKIE)) {
      for (String part : header.split(";")) {
        String p = part.strip();
        if (p.startsWith(COOKIE + "=") && p.length() > COOKIE.length() + 1) {
          try {
            return Optional.of(
                new String(
                    Base64.getUrlDecoder().decode(p.substring(COOKIE.length() + 1)),
                    StandardCharsets.UTF_8));
          } catch (IllegalArgumentException e) {
            return Optional.empty();
          }
        }
      }
    }
    return Optional.empty();
  }

  private static Map<String, String> form(ServerRequest req) {
    Map<String, String> out = new LinkedHashMap<>();
    String body = req.content().hasEntity() ? req.content().as(String.class) : "";
    for (String pair : body.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      try {
        out.putIfAbsent(
            URLDecoder.decode(k, StandardCharsets.UTF_8),
            URLDecoder.decode(v, StandardCharsets.UTF_8));
      } catch (IllegalArgumentException malformed) {
        // a malformed field is ignored, as if it had not been sent
      }
    }
    return out;
  }

  private static Optional<String> query(ServerRequest req, String key) {
    return req.query().contains(key) ? Optional.of(req.query().get(key)) : Optional.empty();
  }

  private static void redirect(ServerResponse res, String location) {
    res.status(Status.SEE_OTHER_303);
    res.header(HeaderNames.LOCATION, location);
    res.header(HeaderNames.CACHE_CONTROL, "no-store");
    res.send();
  }

  private static void html(ServerResponse res, int status, String body) {
    res.status(Status.create(status));
    res.header(HeaderNames.CONTENT_TYPE, "text/html; charset=utf-8");
    res.header(HeaderNames.CACHE_CONTROL, "no-store");
    res.header(HeaderNames.create("Content-Security-Policy"), CSP);
    res.header(HeaderNames.create("X-Content-Type-Options"), "nosniff");
    // same-origin, not no-referrer: with no-referrer a browser posts forms with Origin: null.
    res.header(HeaderNames.create("Referrer-Policy"), "same-origin");
    res.send(body);
  }
}
