package dev.agentcompute.capabilities.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.mac.MacConfig;
import dev.agentcompute.capabilities.mac.MacPlatform;
import dev.agentcompute.capabilities.platform.PlatformRouter;
import dev.agentcompute.capabilities.reaper.Reaper;
import dev.agentcompute.lume.MacHost;
import dev.agentcompute.lume.MacHostDouble;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both platforms behind one router: Incus is the in-memory double, Mac is the real backend over
 * real SSH to the Mac host double (see {@link MacHostDouble#BANNER}).
 */
class MacAndIncusTest {
  private static final class ManualClock extends Clock {
    Instant now = Instant.parse("2026-12-01T10:00:00Z");

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  @TempDir Path dir;
  private final InMemoryPlatform incus = new InMemoryPlatform();
  private final ManualClock clock = new ManualClock();
  private MacHostDouble mac;
  private MacHost host;
  private SandboxService service;

  @BeforeAll
  static void banner() {
    System.out.println(MacHostDouble.BANNER);
  }

  @BeforeEach
  void start() throws Exception {
    mac = new MacHostDouble(dir);
    host = MacHost.of(mac.config());
    MacPlatform platform = MacPlatform.over(host, new MacConfig(Map.of(), Set.of()));
    service =
        Compute.over(
                new PlatformRouter(List.of(incus.platform(), platform.platform())),
                ComputeConfig.defaults(),
                ImageCatalog.parse("schema_version: 1\nimages: []\n"),
                clock,
                new SplittableRandom(7))
            .sandboxes();
  }

  @AfterEach
  void stop() throws Exception {
    host.close();
    mac.close();
  }

  @Test
  void sandboxListMergesIncusThenMac() {
    service.create("dev", "mac-one", "mac", 60, false);
    service.create("dev", "incus-one", "", 60, false);
    assertThat(service.list())
        .extracting(l -> l.sandbox().name() + "@" + l.sandbox().platform())
        .containsExactly("incus-one@incus", "mac-one@mac");
  }

  @Test
  void namesAreUniqueAcrossPlatforms() {
    service.create("dev", "taken", "", 60, false);
    assertThatThrownBy(() -> service.create("dev", "taken", "mac", 60, false))
        .hasMessage("sandbox \"taken\" already exists");
  }

  @Test
  void theReaperKeepsReapingIncusWhileTheMacHostIsDownAndReapsMacWhenItIsBack() throws Exception {
    service.create("dev", "incus-old", "", 1, false);
    service.create("dev", "mac-old", "mac", 1, false);
    service.create("dev", "mac-live", "mac", 600, false);
    clock.now = clock.now.plus(Duration.ofMinutes(5));
    Reaper reaper = new Reaper(service, Duration.ofSeconds(30));

    mac.stop();
    Reaper.Scan down = reaper.scan();
    assertThat(down.deleted()).containsExactly("incus-old");
    assertThat(incus.sandboxes).doesNotContainKey("incus-old");

    mac.start();
    Reaper.Scan back = reaper.scan();
    assertThat(back.deleted()).containsExactly("mac-old");
    assertThat(service.list()).extracting(l -> l.sandbox().name()).containsExactly("mac-live");
  }
}
