package dev.agentcompute.capabilities.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.platform.PlatformRouter;
import dev.agentcompute.capabilities.reaper.Reaper;
import dev.agentcompute.capabilities.screenshots.ScreenshotStore;
import java.net.URI;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

/** A sandbox's screenshots go when the sandbox goes: deleted by an agent or reaped. */
class ScreenshotPurgeTest {
  private final InMemoryPlatform backend = new InMemoryPlatform();
  private final SandboxPolicyTest.ManualClock clock = new SandboxPolicyTest.ManualClock();

  /** The store's own clock stands still, so only a purge can remove a screenshot here. */
  private final ScreenshotStore store =
      new ScreenshotStore(
          URI.create("http://127.0.0.1:8081"),
          new SandboxPolicyTest.ManualClock(),
          new SecureRandom());

  private final Compute compute =
      Compute.over(
          new PlatformRouter(List.of(backend.platform())),
          ComputeConfig.defaults(),
          ImageCatalog.parse("schema_version: 1\nimages: []\n"),
          clock,
          new SplittableRandom(7),
          Optional.of(store));

  private static byte[] png() {
    ByteBuffer b = ByteBuffer.allocate(33);
    b.put(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}).putInt(13);
    byte[] ihdr =
        ByteBuffer.allocate(17)
            .put("IHDR".getBytes())
            .putInt(1)
            .putInt(1)
            .put(new byte[] {8, 2, 0, 0, 0})
            .array();
    CRC32 crc = new CRC32();
    crc.update(ihdr);
    return b.put(ihdr).putInt((int) crc.getValue()).array();
  }

  @Test
  void deletingASandboxPurgesOnlyItsScreenshots() {
    compute.sandboxes().create("dev", "s1", "", 60, false);
    compute.sandboxes().create("dev", "s2", "", 60, false);
    String mine = store.publish("s1", null, png()).id();
    String other = store.publish("s2", null, png()).id();
    compute.sandboxes().delete("s1");
    assertThat(store.find(mine)).isEmpty();
    assertThat(store.find(other)).isPresent();
  }

  @Test
  void reapingASandboxPurgesItsScreenshots() {
    compute.sandboxes().create("dev", "s1", "", 60, false);
    String id = store.publish("s1", null, png()).id();
    clock.advance(Duration.ofMinutes(61));
    assertThat(new Reaper(compute.sandboxes(), Duration.ofSeconds(30)).scan().deleted())
        .containsExactly("s1");
    assertThat(store.find(id)).isEmpty();
  }

  @Test
  void aLiveSandboxKeepsItsScreenshotsThroughAScan() {
    compute.sandboxes().create("dev", "s1", "", 60, false);
    String id = store.publish("s1", null, png()).id();
    new Reaper(compute.sandboxes(), Duration.ofSeconds(30)).scan();
    assertThat(store.find(id)).isPresent();
  }
}
