package dev.agentcompute.capabilities.files;

import dev.agentcompute.capabilities.model.Errors;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * The outstanding file transfer URLs (docs/capabilities.md#file-transfer-urls): each names one
 * identity, one sandbox instance, one path and one direction, lives {@link TransferLimits#urlTtl}
 * and is used at most once. The URL carries 128 random bits; the HTTP route also requires the same
 * identity's bearer token, and answers another identity exactly as an unknown URL. Only an index is
 * kept (the bodies stream through); a restart forgets every URL.
 */
public final class TransferGrants {
  /** Where the route lives under the base URL. */
  public static final String PATH = "/files/";

  /** Which way the bytes go. */
  public enum Direction {
    UPLOAD("PUT"),
    DOWNLOAD("GET");

    private final String method;

    Direction(String method) {
      this.method = method;
    }

    /** The HTTP method the URL answers. */
    public String method() {
      return method;
    }
  }

  /** One URL's grant. */
  public record Grant(
      String token,
      String subject,
      String sandbox,
      String instance,
      String path,
      Direction direction,
      Integer mode,
      Instant expiresAt) {}

  private final TransferLimits limits;
  private final Clock clock;
  private final RandomGenerator random;
  private final Map<String, Grant> byToken = new LinkedHashMap<>();
  private volatile URI baseUrl;

  /**
   * @param baseUrl {@code files.base_url}, or null: the HTTP listener's URL, given to {@link
   *     #servedAt} once it runs (a server without one, over stdio, refuses to issue URLs)
   * @param random a cryptographically strong generator in production: tokens are capabilities
   */
  public TransferGrants(URI baseUrl, TransferLimits limits, Clock clock, RandomGenerator random) {
    this.baseUrl = baseUrl;
    this.limits = limits;
    this.clock = clock;
    this.random = random;
  }

  public TransferLimits limits() {
    return limits;
  }

  /** Tells grants without a configured base URL where the HTTP listener runs. */
  public void servedAt(URI listenerUrl) {
    if (baseUrl == null) {
      baseUrl = listenerUrl;
    }
  }

  /** Issues a URL for {@code subject}; refuses when that identity holds its limit of URLs. */
  public synchronized Grant issue(
      String subject,
      String sandbox,
      String instance,
      String path,
      Direction direction,
      Integer mode) {
    if (baseUrl == null) {
      throw Errors.of(
          "file transfer URLs are served by the HTTP listener only; this server runs over stdio"
              + " (start it with the http command)");
    }
    sweep();
    long held = byToken.values().stream().filter(g -> g.subject().equals(subject)).count();
    if (held >= limits.maxUrlsPerIdentity()) {
      throw Errors.of(
          "identity holds %d unused file transfer URLs (limit files.max_urls_per_identity = %d);"
              + " use or let some expire (after %d s) first",
          held, limits.maxUrlsPerIdentity(), limits.urlTtl().toSeconds());
    }
    String token = newToken();
    Grant grant =
        new Grant(
            token,
            subject,
            sandbox,
            instance,
            path,
            direction,
            mode,
            clock.instant().plus(limits.urlTtl()));
    byToken.put(token, grant);
    return grant;
  }

  /**
   * Takes the grant of {@code token} for {@code subject} and {@code direction}, so it cannot be
   * used again. Unknown, expired, used, and another identity's tokens are all empty, alike. A
   * request with the wrong method for a live grant of the same identity leaves it in place.
   */
  public synchronized Optional<Grant> claim(String token, String subject, Direction direction) {
    Grant grant = byToken.get(token);
    if (grant == null || !grant.subject().equals(subject)) {
      return Optional.empty();
    }
    if (!clock.instant().isBefore(grant.expiresAt())) {
      byToken.remove(token);
      return Optional.empty();
    }
    if (grant.direction() != direction) {
      return Optional.empty();
    }
    byToken.remove(token);
    return Optional.of(grant);
  }

  /** The direction of a live grant of {@code subject}, if any (to answer a wrong method). */
  public synchronized Optional<Direction> peek(String token, String subject) {
    Grant grant = byToken.get(token);
    if (grant == null
        || !grant.subject().equals(subject)
        || !clock.instant().isBefore(grant.expiresAt())) {
      return Optional.empty();
    }
    return Optional.of(grant.direction());
  }

  /** The URL of a grant. */
  public URI url(Grant grant) {
    String base = baseUrl.toString();
    while (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    return URI.create(base + PATH + grant.token());
  }

  /** The path the route serves, relative to the server root ({@code /files} or below). */
  public String routePrefix() {
    URI configured = baseUrl;
    String path =
        configured == null || configured.getRawPath() == null ? "" : configured.getRawPath();
    while (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    return path + PATH.substring(0, PATH.length() - 1);
  }

  /** Forgets the URLs into a sandbox (deleted or reaped); returns how many. */
  public synchronized int purge(String sandbox) {
    int before = byToken.size();
    byToken.values().removeIf(g -> g.sandbox().equals(sandbox));
    return before - byToken.size();
  }

  /** Forgets expired URLs; returns how many. */
  public synchronized int sweep() {
    Instant now = clock.instant();
    int before = byToken.size();
    byToken.values().removeIf(g -> !now.isBefore(g.expiresAt()));
    return before - byToken.size();
  }

  /** Unused URLs held now. */
  public synchronized int outstanding() {
    return byToken.size();
  }

  private String newToken() {
    byte[] bytes = new byte[16];
    while (true) {
      for (int i = 0; i < bytes.length; i += 8) {
        long r = random.nextLong();
        for (int j = 0; j < 8; j++) {
          bytes[i + j] = (byte) (r >>> (8 * j));
        }
      }
      String token = HexFormat.of().formatHex(bytes);
      if (!byToken.containsKey(token)) {
        return token;
      }
    }
  }
}
