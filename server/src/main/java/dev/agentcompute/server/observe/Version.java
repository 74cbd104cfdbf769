package dev.agentcompute.server.observe;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The build's identity: version, git commit and build date, which the server module's build filters
 * into {@code version.properties} beside this class. Run from unbuilt sources (an IDE) there is no
 * filtered resource and the values are the placeholders {@link #PLACEHOLDERS}.
 */
public record Version(String version, String commit, String date) {
  /** What each field says when the build did not stamp it. */
  public static final Version PLACEHOLDERS = new Version("dev", "none", "unknown");

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
        nonEmpty(p.getProperty("version"), PLACEHOLDERS.version),
        nonEmpty(p.getProperty("commit"), PLACEHOLDERS.commit),
        nonEmpty(p.getProperty("date"), PLACEHOLDERS.date));
  }

  private static String nonEmpty(String value, String fallback) {
    return value == null || value.isBlank() || value.startsWith("${") ? fallback : value;
  }

  /** {@code agentcompute <version> (<commit>) built <date>}. */
  public String line() {
    return "agentcompute " + version + " (" + commit + ") built " + date;
  }
}
