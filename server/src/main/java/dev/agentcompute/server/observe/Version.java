package dev.agentcompute.server.observe;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Build identity, read from a resource Maven writes; defaults dev, none, unknown. */
public record Version(String version, String commit, String date) {
  public static Version current() {
    Properties p = new Properties();
    try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      // Fall back to the development identity below.
    }
    return new Version(
        nonEmpty(p.getProperty("version"), "dev"),
        nonEmpty(p.getProperty("commit"), "none"),
        nonEmpty(p.getProperty("date"), "unknown"));
  }

  private static String nonEmpty(String value, String fallback) {
    return value == null || value.isBlank() || value.startsWith("${") ? fallback : value;
  }

  /** {@code agentcompute <version> (<commit>) built <date>}. */
  public String line() {
    return "agentcompute " + version + " (" + commit + ") built " + date;
  }
}
