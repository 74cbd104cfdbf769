package dev.agentcompute.capabilities.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.platform.Platform;
import dev.agentcompute.capabilities.platform.PlatformRouter;
import dev.agentcompute.capabilities.platform.SandboxStore;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * sandbox.limits' usage is the identity quotas' count: the caller's live sandboxes over the
 * platforms that answer, and a platform that does not is logged as skipped by sandbox.limits (not
 * by the reaper's scan, whose read it used to borrow).
 */
class SandboxUsageTest {
  private final InMemoryPlatform incus = new InMemoryPlatform();
  private final SandboxPolicyTest.ManualClock clock = new SandboxPolicyTest.ManualClock();
  private final List<String> logged = new CopyOnWriteArrayList<>();
  private final Logger quotaLog = Logger.getLogger(IdentityQuotas.class.getName());
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          logged.add(record.getMessage());
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  private final Compute compute =
      Compute.over(
          new PlatformRouter(List.of(incus.platform(), unreachable("mac"))),
          ComputeConfig.defaults(),
          ImageCatalog.parse("schema_version: 1\nimages: []\n"),
          clock,
          new SplittableRandom(7));

  @BeforeEach
  void listen() {
    quotaLog.addHandler(capture);
  }

  @AfterEach
  void stopListening() {
    quotaLog.removeHandler(capture);
  }

  /** A platform whose every sandbox read fails, as one whose host does not answer. */
  private static Platform unreachable(String name) {
    Platform p = new InMemoryPlatform().platform();
    SandboxStore down =
        new SandboxStore() {
          private BackendException down() {
            return new BackendException(BackendException.Kind.UNAVAILABLE, "host down");
          }

          @Override
          public Optional<Sandbox> find(String n) {
            return Optional.empty();
          }

          @Override
          public List<Sandbox> list() {
            throw down();
          }

          @Override
          public void create(Sandbox sandbox) {
            throw down();
          }

          @Override
          public void write(Sandbox sandbox) {
            throw down();
          }

          @Override
          public void delete(String n) {
            throw down();
          }
        };
    return new Platform(
        name,
        p.readiness(),
        down,
        p.instances(),
        p.snapshots(),
        p.images(),
        p.networks(),
        p.ovn(),
        p.files(),
        p.processes(),
        p.features());
  }

  @Test
  void usageCountsTheCallersLiveSandboxesAndNamesSandboxLimitsForAPlatformItSkips() {
    compute.sandboxes().create("alice", "a1", "incus", 60, false);
    compute.sandboxes().create("alice", "a2", "incus", 10, false);
    compute.sandboxes().create("bob", "b1", "incus", 60, false);
    clock.advance(Duration.ofMinutes(11));
    logged.clear();

    assertThat(compute.sandboxes().usage("alice")).isEqualTo(new SandboxService.Usage(1, 0));
    assertThat(logged).containsExactly("sandbox.limits skipped platform=mac err=host down");
  }
}
