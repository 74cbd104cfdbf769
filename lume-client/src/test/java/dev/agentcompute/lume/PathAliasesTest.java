package dev.agentcompute.lume;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PathAliasesTest {
  private final PathAliases aliases =
      new PathAliases(
          Map.of("/usr/bin/id", "/t/bin/id", "/Users/lume", "/t/home", "/bin/launchctl", "/t/lc"));

  @Test
  void replacesWholePathsQuotedOrNotAndUnderAHome() {
    assertThat(aliases.apply("'/usr/bin/id' -u && cd /Users/lume/Desktop && /bin/launchctl print"))
        .isEqualTo("'/t/bin/id' -u && cd /t/home/Desktop && /t/lc print");
  }

  @Test
  void leavesLongerNamesAndOtherPathsAlone() {
    assertThat(aliases.apply("/usr/bin/identify /Users/lumen /usr/bin/launchctl /bin/launchctl.d"))
        .isEqualTo("/usr/bin/identify /Users/lumen /usr/bin/launchctl /bin/launchctl.d");
    assertThat(new PathAliases(Map.of()).apply("/usr/bin/id")).isEqualTo("/usr/bin/id");
  }
}
