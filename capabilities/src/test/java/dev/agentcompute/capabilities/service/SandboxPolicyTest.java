package dev.agentcompute.capabilities.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.config.Quotas;
import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxNetwork;
import dev.agentcompute.capabilities.platform.PlatformRouter;
import dev.agentcompute.capabilities.reaper.Reaper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SandboxPolicyTest {
  /** A clock the test moves by hand. */
  static final class ManualClock extends Clock {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");

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

    void advance(Duration d) {
      now = now.plus(d);
    }
  }

  private final InMemoryPlatform backend = new InMemoryPlatform();
  private final ManualClock clock = new ManualClock();
  private final Compute compute =
      Compute.over(
          new PlatformRouter(List.of(backend.platform())),
          ComputeConfig.defaults()
              .withPinIdentities(Set.of("op"))
              // The name-collision test fills the store with one identity's sandboxes.
              .withQuotas(Quotas.defaults().withSandboxesPerIdentity(1000)),
          ImageCatalog.parse("schema_version: 1\nimages: []\n"),
          clock,
          new SplittableRandom(42));
  private final SandboxService service = compute.sandboxes();

  @Test
  void pinningIsCheckedBeforeAnyBackendCall() {
    assertThatThrownBy(() -> service.create("dev", "s1", "", 0, true))
        .hasMessage("pinning requires an operator identity");
    assertThatThrownBy(() -> service.pin("", "s1", true))
        .hasMessage("pinning requires an operator identity");
    assertThat(backend.calls).isEmpty();
  }

  @Test
  void ttlIsCheckedBeforeTheNameAndTheDefaultApplies() {
    assertThatThrownBy(() -> service.create("dev", "Bad", "", 5000, false))
        .hasMessage("ttl exceeds maximum of 1440 minutes");
    SandboxService.Created created = service.create("dev", "s1", "", 0, false);
    assertThat(created.sandbox().expiresAt()).isEqualTo(clock.now.plus(Duration.ofMinutes(240)));
    assertThat(created.sandbox().subject()).isEqualTo("dev");
    assertThat(created.network()).map(SandboxNetwork::name).contains("default");
    assertThatThrownBy(() -> service.create("dev", "s1", "", 0, false))
        .hasMessage("sandbox \"s1\" already exists");
  }

  @Test
  void generatedNamesRetryOnCollisionAndGiveUpAfterSixtyFourAttempts() {
    SandboxService.Created first = service.create("dev", "", "", 0, false);
    assertThat(first.sandbox().name()).matches("[a-z]+-[a-z]+");
    for (String adjective :
        new String[] {
          "amber", "brisk", "coral", "dusky", "eager", "fern", "golden", "hardy", "ivory", "jade",
          "keen", "lucky"
        }) {
      for (String noun :
          new String[] {
            "acorn", "brook", "cedar", "daisy", "ember", "falcon", "grove", "heron", "inlet",
            "jasper", "kestrel", "lagoon"
          }) {
        backend.sandboxes.putIfAbsent(adjective + "-" + noun, first.sandbox());
      }
    }
    assertThatThrownBy(() -> service.create("dev", "", "", 0, false))
        .hasMessage("unable to allocate a sandbox name");
  }

  @Test
  void aHalfCreatedSandboxIsRolledBack() {
    backend.failNetwork = true;
    assertThatThrownBy(() -> service.create("dev", "half", "", 0, false))
        .isInstanceOf(BackendException.class);
    assertThat(backend.sandboxes).doesNotContainKey("half");
  }

  @Test
  void extendReplacesTheExpiryFromNowAndRefusesExpiredSandboxes() {
    service.create("dev", "s1", "", 10, false);
    clock.advance(Duration.ofMinutes(5));
    assertThat(service.extend("s1", 30).expiresAt())
        .isEqualTo(clock.now.plus(Duration.ofMinutes(30)));
    clock.advance(Duration.ofMinutes(31));
    assertThatThrownBy(() -> service.extend("s1", 30)).hasMessage("sandbox \"s1\" has expired");
    assertThatThrownBy(() -> service.extend("ghost", 30)).hasMessage("sandbox \"ghost\" not found");
  }

  @Test
  void extendNeverShortensTheExpiry() {
    service.create("dev", "s1", "", 240, false);
    Instant fourHours = backend.sandboxes.get("s1").expiresAt();
    SandboxService.Extension kept = service.extend("s1", 60);
    assertThat(kept.expiresAt()).isEqualTo(fourHours);
    assertThat(kept.requested()).isEqualTo(clock.now.plus(Duration.ofMinutes(60)));
    assertThat(kept.kept()).isTrue();
    assertThat(backend.sandboxes.get("s1").expiresAt()).isEqualTo(fourHours);
    clock.advance(Duration.ofMinutes(200));
    SandboxService.Extension longer = service.extend("s1", 60);
    assertThat(longer.kept()).isFalse();
    assertThat(longer.expiresAt()).isEqualTo(clock.now.plus(Duration.ofMinutes(60)));
  }

  @Test
  void pinsKeepTheirFirstAttributionAndUnpinKeepsTheExpiry() {
    service.create("dev", "s1", "", 10, false);
    Instant expiry = backend.sandboxes.get("s1").expiresAt();
    Sandbox pinned = service.pin("op", "s1", true);
    assertThat(pinned.pinnedBy()).isEqualTo("op");
    Instant pinnedAt = pinned.pinnedAt();
    clock.advance(Duration.ofMinutes(20));
    // Pinned sandboxes stay live past expiry; re-pinning changes nothing.
    Sandbox again = service.pin("op", "s1", true);
    assertThat(again.pinnedAt()).isEqualTo(pinnedAt);
    assertThat(service.extend("s1", 5).expiresAt()).isEqualTo(clock.now.plusSeconds(300));
    clock.advance(Duration.ofMinutes(10));
    Sandbox unpinned = service.pin("op", "s1", false);
    assertThat(unpinned.pinned()).isFalse();
    assertThat(unpinned.pinnedBy()).isEmpty();
    assertThat(unpinned.expiresAt()).isBefore(clock.now);
    assertThatThrownBy(() -> service.pin("op", "s1", true))
        .hasMessage("sandbox \"s1\" has expired");
    assertThat(expiry).isNotNull();
  }

  @Test
  void theReaperSkipsPinnedAndLiveSandboxesAndRetriesFailedDeletions() {
    service.create("dev", "live", "", 60, false);
    service.create("op", "kept", "", 1, true);
    service.create("dev", "old", "", 1, false);
    clock.advance(Duration.ofMinutes(2));
    Reaper reaper = new Reaper(service, Duration.ofSeconds(30));
    List<String> heard = new java.util.ArrayList<>();
    reaper.observe(
        new dev.agentcompute.capabilities.reaper.ReapListener() {
          @Override
          public void expired(Sandbox sandbox) {
            heard.add("expired " + sandbox.name() + " of " + sandbox.subject());
          }

          @Override
          public void deleted(Sandbox sandbox) {
            heard.add("deleted " + sandbox.name());
          }

          @Override
          public void failed(Sandbox sandbox, RuntimeException failure) {
            heard.add("failed " + sandbox.name());
          }
        });
    backend.failDeletes = 1;
    Reaper.Scan first = reaper.scan();
    assertThat(first.failed()).containsExactly("old");
    assertThat(first.pinned()).containsExactly("kept");
    assertThat(backend.sandboxes).containsKeys("live", "kept", "old");
    Reaper.Scan second = reaper.scan();
    assertThat(second.deleted()).containsExactly("old");
    assertThat(backend.sandboxes).containsOnlyKeys("live", "kept");
    assertThat(heard)
        .containsExactly("expired old of dev", "failed old", "expired old of dev", "deleted old");
  }

  @Test
  void pinListenersHearOnlyChangesOfThePin() {
    List<String> heard = new java.util.ArrayList<>();
    service.onPinChanged(
        (who, sandbox, pinned) -> heard.add(who + " " + sandbox.name() + " " + pinned));
    service.create("op", "p1", "", 60, false);
    service.pin("op", "p1", true);
    service.pin("op", "p1", true);
    service.pin("op", "p1", false);
    assertThat(heard).containsExactly("op p1 true", "op p1 false");
  }

  @Test
  void deleteExpiresAndUnpinsFirstSoAFailedDeletionIsReaped() {
    service.create("op", "s1", "", 60, true);
    backend.failDeletes = 1;
    assertThatThrownBy(() -> service.delete("s1")).isInstanceOf(BackendException.class);
    Sandbox left = backend.sandboxes.get("s1");
    assertThat(left.pinned()).isFalse();
    assertThat(left.isLive(clock.now.plusMillis(1))).isFalse();
    clock.advance(Duration.ofSeconds(1));
    assertThat(new Reaper(service, Duration.ofSeconds(30)).scan().deleted()).containsExactly("s1");
    assertThatThrownBy(() -> service.delete("s1")).hasMessage("sandbox \"s1\" not found");
  }

  @Test
  void macAndUnknownInputsAreRefusedWithTheOriginalsTexts() {
    assertThatThrownBy(() -> service.create("dev", "m1", "mac", 0, false))
        .hasMessage("platform \"mac\" is not available yet");
    assertThatThrownBy(() -> service.create("dev", "none", "", 0, false))
        .hasMessage("name \"none\" is reserved");
    assertThatThrownBy(() -> compute.images().resolve("s1", "")).hasMessage("image \"\" not found");
  }
}
