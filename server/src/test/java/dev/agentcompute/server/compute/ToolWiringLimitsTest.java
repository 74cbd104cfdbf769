package dev.agentcompute.server.compute;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.server.config.ConfigLoader;
import dev.agentcompute.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One identity's share of the execution slots ({@code codemode.max_slots_per_identity}) reaches
 * CodeMode's per-subject cap, which the worker pool's fair queue enforces.
 */
class ToolWiringLimitsTest {
  @TempDir Path dir;

  private ServerConfig load(String extra) throws Exception {
    Path file = dir.resolve("c.yaml");
    Files.writeString(
        file,
        "incus: {remote: local, pool: default, ovn_uplink: uplink0}\n"
            + "screenshots: {base_url: \"http://127.0.0.1:8081\"}\n"
            + extra);
    return ConfigLoader.load(file).config();
  }

  @Test
  void theConfiguredShareOfTheSlotsIsTheSubjectCap() throws Exception {
    assertThat(
            ToolWiring.limits(load("codemode: {max_slots_per_identity: 2}\n"))
                .maxConcurrentExecutionsPerSubject())
        .isEqualTo(2);
  }

  @Test
  void byDefaultAnIdentityHoldsHalfOfTheEightSlots() throws Exception {
    assertThat(ToolWiring.limits(load("")).maxConcurrentExecutionsPerSubject()).isEqualTo(4);
  }
}
