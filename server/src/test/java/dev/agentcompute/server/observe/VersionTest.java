package dev.agentcompute.server.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The build stamps its identity into the jar: a build by Maven (which runs these tests) must show
 * its real version, commit and date, never the placeholders of an unbuilt tree.
 */
class VersionTest {
  @Test
  void theBuildStampsVersionCommitAndDate() {
    Version v = Version.current();
    assertThat(v.version()).isNotEqualTo(Version.PLACEHOLDERS.version()).matches("\\d+\\.\\d+.*");
    assertThat(v.commit()).isNotEqualTo(Version.PLACEHOLDERS.commit());
    assertThat(v.date()).isNotEqualTo(Version.PLACEHOLDERS.date());
    assertThat(Instant.parse(v.date())).isBefore(Instant.now().plusSeconds(1));
    // Maven runs the tests in the module's directory; the checkout's root is its parent.
    if (Files.exists(Path.of("..", ".git"))) {
      assertThat(v.commit()).matches("[0-9a-f]{12,40}(-dirty)?");
    } else {
      assertThat(v.commit()).isEqualTo("no-git-metadata");
    }
    assertThat(v.line())
        .isEqualTo("agentcompute " + v.version() + " (" + v.commit() + ") built " + v.date());
  }

  @Test
  void theBuildInfoGaugeCarriesTheIdentityAsLabels() {
    ServerMetrics metrics = ServerMetrics.inMemory();
    Version v = Version.current();
    metrics.buildInfo(v);
    assertThat(metrics.buildInfoValue(v)).contains(1.0);
    assertThat(metrics.buildInfoValue(new Version("0", "other", "never"))).isEmpty();
  }
}
