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

  private final BearerTokens tokens;

  public BearerAuthenticationProvider(BearerTokens tokens) {
    this.tokens = tokens;
  }

  @Override
  public AuthenticationResponse authenticate(ProviderRequest request) {
    Optional<String> header = header(request.env().headers(), "Authorization");
    if (header.isEmpty()) {
      return challenge(
          "missing bearer token", "Bearer realm=\"" + REALM + "\", scope=\"" + SCOPE + "\"");
    }
    String value = header.get();
    if (value.length() < 7 || !value.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return challenge(
          "authorization is not a bearer token",
          "Bearer realm=\"" + REALM + "\", error=\"invalid_request\"");
    }
    Optional<String> identity = tokens.identify(value.substring(7).strip());
    if (identity.isEmpty()) {
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
