package dev.agentcompute.incus;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * The project and cluster member a call applies to ({@code ?project=} and {@code ?target=}); null =
 * daemon default.
 */
record Scope(String project, String target) {

  static final Scope DEFAULT = new Scope(null, null);

  /** Appends this scope's parameters to a path that may already carry a query. */
  String apply(String pathAndQuery) {
    StringBuilder out = new StringBuilder(pathAndQuery);
    char separator = pathAndQuery.indexOf('?') >= 0 ? '&' : '?';
    if (project != null && !project.isEmpty()) {
      out.append(separator).append("project=").append(encode(project));
      separator = '&';
    }
    if (target != null && !target.isEmpty()) {
      out.append(separator).append("target=").append(encode(target));
    }
    return out.toString();
  }

  static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** A path segment: names are validated by Incus, but never let one change the URL's shape. */
  static String segment(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("empty name in Incus path");
    }
    return encode(name);
  }

  /**
   * The names in a {@code recursion=0} listing: each URL's last segment, without its query, decoded
   * (the inverse of {@link #segment}).
   */
  static java.util.List<String> lastSegments(java.util.List<String> urls) {
    return urls.stream()
        .map(url -> url.substring(url.lastIndexOf('/') + 1))
        .map(name -> name.contains("?") ? name.substring(0, name.indexOf('?')) : name)
        .map(name -> java.net.URLDecoder.decode(name, java.nio.charset.StandardCharsets.UTF_8))
        .toList();
  }
}
