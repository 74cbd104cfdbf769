package dev.agentcompute.server.auth;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.helidon.webserver.http.ServerRequest;
import java.util.List;
import java.util.Optional;

/**
 * Bearer authentication for {@code Authorization: Bearer <token>} in front of the paths it guards:
 * the token's SHA-256 digest is compared in constant time with every configured entry, and the
 * matching entry's name becomes the request's subject (and later the CodeMode subject). Anything
 * else is a 401 with a {@code WWW-Authenticate} challenge. The token never leaves this method.
 *
 * <p>A Helidon filter of our own rather than helidon-security: that module is not published for the
 * Helidon release we run on, and a static token to identity map is all it did for us.
 */
public final class BearerAuthentication {
  static final String REALM = "agentcompute";

  /** Granted to every identity; the MCP endpoint requires it (docs/security.md#bearer-tokens). */
  static final String SCOPE = "mcp";

  private final BearerTokens tokens;
  private final List<String> guardedPrefixes;

  /** The identity this filter verified, registered in the request's context. */
  public record Subject(String name) {}

  public BearerAuthentication(BearerTokens tokens, List<String> guardedPrefixes) {
    this.tokens = tokens;
    this.guardedPrefixes = List.copyOf(guardedPrefixes);
  }

  /** The identity verified for this request, if the filter ran and accepted it. */
  public static Optional<String> subject(ServerRequest req) {
    return req.context().get(Subject.class).map(Subject::name);
  }

  /** The Helidon filter: guarded paths need a known bearer token, others pass untouched. */
  public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
    if (!guards(req.path().path())) {
      chain.proceed();
      return;
    }
    List<String> values = req.headers().values(HeaderNames.AUTHORIZATION);
    if (values.isEmpty()) {
      challenge(res, "missing bearer token", "scope=\"" + SCOPE + "\"");
      return;
    }
    String value = values.getFirst();
    if (value.length() < 7 || !value.regionMatches(true, 0, "Bearer ", 0, 7)) {
      challenge(res, "authorization is not a bearer token", "error=\"invalid_request\"");
      return;
    }
    Optional<String> identity = tokens.identify(value.substring(7).strip());
    if (identity.isEmpty()) {
      challenge(res, "invalid bearer token", "error=\"invalid_token\"");
      return;
    }
    req.context().register(new Subject(identity.get()));
    chain.proceed();
  }

  private boolean guards(String path) {
    for (String prefix : guardedPrefixes) {
      if (path.equals(prefix) || path.startsWith(prefix + "/")) {
        return true;
      }
    }
    return false;
  }

  private static void challenge(RoutingResponse res, String description, String parameter) {
    res.status(Status.UNAUTHORIZED_401)
        .header(HeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"" + REALM + "\", " + parameter)
        .header(HeaderNames.CONTENT_TYPE, "text/plain; charset=UTF-8")
        .send("Unauthorized: " + description);
  }
}
