package dev.agentcompute.server.auth;

import io.helidon.security.AuthenticationResponse;
import io.helidon.security.Principal;
import io.helidon.security.ProviderRequest;
import io.helidon.security.SecurityResponse;
import io.helidon.security.Subject;
import io.helidon.security.spi.AuthenticationProvider;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * helidon-security provider for {@code Authorization: Bearer <token>}: the token's SHA-256 digest
 * is compared in constant time with every configured entry, and the matching entry's name becomes
 * the principal (and later the CodeMode subject). Anything else is a 401 with a {@code
 * WWW-Authenticate} challenge. The token never leaves this method.
 */
public final class BearerAuthenticationProvider implements AuthenticationProvider {
  static final String REALM = "agentcompute";

  /** Granted to every identity; the MCP endpoint requires it (docs/security.md#bearer-tokens). */
  static final String SCOPE = "mcp";

  /** Hears every refusal, for the audit trail and the authentication-failure counter. */
  @FunctionalInterface
  public interface Failures {
    Failures NONE = (reason, remote, method, path) -> {};

    /**
     * A request was refused: {@code reason} is {@code missing} (no Authorization header), {@code
     * malformed} (not a bearer token) or {@code unknown} (no configured token matches).
     */
    void refused(String reason, String remote, String method, String path);
  }

  private final BearerTokens tokens;
  private final Failures failures;

  public BearerAuthenticationProvider(BearerTokens tokens) {
    this(tokens, Failures.NONE);
  }

  public BearerAuthenticationProvider(BearerTokens tokens, Failures failures) {
    this.tokens = tokens;
    this.failures = failures;
  }

  @Override
  public AuthenticationResponse authenticate(ProviderRequest request) {
    Optional<String> header = header(request.env().headers(), "Authorization");
    if (header.isEmpty()) {
      refused("missing", request);
      return challenge(
          "missing bearer token", "Bearer realm=\"" + REALM + "\", scope=\"" + SCOPE + "\"");
    }
    String value = header.get();
    if (value.length() < 7 || !value.regionMatches(true, 0, "Bearer ", 0, 7)) {
      refused("malformed", request);
      return challenge(
          "authorization is not a bearer token",
          "Bearer realm=\"" + REALM + "\", error=\"invalid_request\"");
    }
    Optional<String> identity = tokens.identify(value.substring(7).strip());
    if (identity.isEmpty()) {
      refused("unknown", request);
      return challenge(
          "invalid bearer token", "Bearer realm=\"" + REALM + "\", error=\"invalid_token\"");
    }
    Subject subject =
        Subject.builder()
            .principal(Principal.create(identity.get()))
            .addAttribute("scope", SCOPE)
            .build();
    return AuthenticationResponse.success(subject);
  }

  private void refused(String reason, ProviderRequest request) {
    try {
      failures.refused(
          reason,
          request.env().abacAttribute("userIp").map(String::valueOf).orElse(null),
          request.env().method(),
          request.env().path().orElse(null));
    } catch (RuntimeException e) {
      // The refusal stands whatever its listener does.
    }
  }

  private static AuthenticationResponse challenge(String description, String challenge) {
    return AuthenticationResponse.builder()
        .status(SecurityResponse.SecurityStatus.FAILURE)
        .statusCode(401)
        .description(description)
        .responseHeader("WWW-Authenticate", challenge)
        .build();
  }

  private static Optional<String> header(Map<String, List<String>> headers, String name) {
    return headers.entrySet().stream()
        .filter(e -> e.getKey().equalsIgnoreCase(name) && !e.getValue().isEmpty())
        .map(e -> e.getValue().getFirst())
        .findFirst();
  }
}
