package dev.agentcompute.capabilities.mac;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Lume's VNC URLs, which name the listener as the Mac itself sees it. */
final class VncUrls {
  /** {@code scheme://[userinfo@]host[:port][rest]}, the host in group 2. */
  private static final Pattern URL =
      Pattern.compile("^([a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/]*@)?)(\\[[^]]*]|[^:/?#]*)(.*)$");

  private VncUrls() {}

  /**
   * {@code url} with a loopback host ({@code 127.0.0.1}, {@code localhost}, {@code [::1]}) replaced
   * by {@code host}; any other URL unchanged.
   */
  static String onHost(String url, String host) {
    Matcher m = URL.matcher(url);
    if (!m.matches()) {
      return url;
    }
    String current = m.group(2).toLowerCase(java.util.Locale.ROOT);
    boolean loopback =
        current.equals("localhost") || current.equals("[::1]") || current.startsWith("127.");
    if (!loopback) {
      return url;
    }
    String replacement = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
    return m.group(1) + replacement + m.group(3);
  }
}
