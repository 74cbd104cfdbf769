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
}
