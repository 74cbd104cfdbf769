package dev.agentcompute.server.admin;

import dev.agentcompute.server.auth.BearerTokens;
import dev.agentcompute.server.config.ServerConfig;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Who may administer: the caller's token (a bearer header for the API and the CLI, the console's
 * cookie for the browser) must name an identity listed in {@code admin.operators}, read from the
 * configuration in force at each request (a reload grants or revokes at once). Without bearer
 * tokens the server is a development one and every caller is {@code development}.
 */
public final class AdminAccess {
  static final String DEVELOPMENT_SUBJECT = "development";

  private final Optional<BearerTokens> tokens;
  private final Supplier<ServerConfig.Admin> admin;

  public AdminAccess(Optional<BearerTokens> tokens, Supplier<ServerConfig.Admin> admin) {
    this.tokens = tokens;
    this.admin = admin;
  }

  /** Whether a token is asked for at all (false on a development server without tokens). */
  boolean tokensRequired() {
    return tokens.isPresent();
  }

  /**
   * The operator a presented token belongs to.
   *
   * @param token the token from the bearer header or the cookie, empty when none was sent
   * @throws AdminException 401 without a valid token, 403 for an identity that is no operator
   */
  String operator(Optional<String> token) {
    String subject;
    if (tokens.isEmpty()) {
      subject = DEVELOPMENT_SUBJECT;
    } else {
      if (token.isEmpty() || token.get().isBlank()) {
        throw new AdminException(
            401,
            "the admin API needs a bearer token: send Authorization: Bearer <token> of an identity"
                + " listed in admin.operators");
      }
      subject =
          tokens
              .get()
              .identify(token.get().strip())
              .orElseThrow(
                  () ->
                      new AdminException(
                          401, "invalid bearer token: it names no identity in the token file"));
    }
    if (!admin.get().isOperator(subject)) {
      throw new AdminException(
          403,
          "identity \""
              + subject
              + "\" is not an operator: add it to admin.operators in the configuration file");
    }
    return subject;
  }

  /** The token of an {@code Authorization: Bearer} header value. */
  static Optional<String> bearer(Optional<String> header) {
    return header
        .filter(h -> h.length() > 7 && h.regionMatches(true, 0, "Bearer ", 0, 7))
        .map(h -> h.substring(7).strip());
  }
}
