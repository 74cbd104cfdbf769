package dev.agentcompute.capabilities.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Services and the platform port decide by {@link PlatformFeature}, never by comparing a platform's
 * name (a source scan of service/ and platform/).
 */
class PlatformFeatureTest {
  private static final Path SOURCES = Path.of("src/main/java/dev/agentcompute/capabilities");

  /** A platform name compared as a string: equals, a switch case, or the platforms' constants. */
  private static final Pattern NAME_COMPARISON =
      Pattern.compile(
          "(?:equals(?:IgnoreCase)?\\(\\s*\"(?:incus|mac)\"|\"(?:incus|mac)\"\\s*\\.equals"
              + "|case\\s+\"(?:incus|mac)\"|[=!]=\\s*\"(?:incus|mac)\""
              + "|(?:IncusPlatform|MacPlatform)\\.NAME\\s*\\.equals"
              + "|equals\\(\\s*(?:IncusPlatform|MacPlatform)\\.NAME)");

  static List<String> comparisons(Path root) throws IOException {
    List<String> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++) {
          if (NAME_COMPARISON.matcher(lines.get(i)).find()) {
            found.add(file.getFileName() + ":" + (i + 1) + ": " + lines.get(i).strip());
          }
        }
      }
    }
    return found;
  }

  @Test
  void servicesAndPlatformPortsCompareNoPlatformName() throws IOException {
    List<String> found = new ArrayList<>();
    found.addAll(comparisons(SOURCES.resolve("service")));
    found.addAll(comparisons(SOURCES.resolve("platform")));
    assertThat(found).as("ask router.supports(PlatformFeature) instead").isEmpty();
  }

  @Test
  void theScanFindsTheComparisonsItForbids() {
    for (String line :
        List.of(
            "if (sandbox.platform().equals(\"mac\")) {",
            "\"incus\".equals(resolved.platform())",
            "case \"mac\" -> 1;",
            "sandbox.platform().equals(MacPlatform.NAME)")) {
      assertThat(NAME_COMPARISON.matcher(line).find()).as(line).isTrue();
    }
    assertThat(NAME_COMPARISON.matcher("Set.of(\"incus\", \"mac\")").find()).isFalse();
  }
}
