package dev.agentcompute.capabilities.screenshots;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.model.AgentFacingException;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ScreenshotStoreTest {
  private static final Instant T0 = MovableClock.T0;
  private static final int MIB = 1024 * 1024;

  private final MovableClock clock = new MovableClock();
  private final ScreenshotStore store =
      new ScreenshotStore(URI.create("https://shots.example/base/"), clock, new SecureRandom());

  @Test
  void aPublishedScreenshotIsFoundByItsIdWithItsBytesAndDimensions() {
    byte[] png = TestPngs.png(640, 480);
    ScreenshotStore.Screenshot shot = store.publish("s1", null, png);
    assertThat(shot.id()).matches("[0-9a-f]{32}");
    assertThat(store.find(shot.id()))
        .hasValueSatisfying(
            found -> {
              assertThat(found.png()).isEqualTo(png);
              assertThat(found.width()).isEqualTo(640);
              assertThat(found.height()).isEqualTo(480);
              assertThat(found.sandbox()).isEqualTo("s1");
            });
  }

  @Test
  void theUrlIsTheBaseUrlFollowedByScreenshotsAndTheId() {
    String id = store.publish("s1", null, TestPngs.png(1, 1)).id();
    assertThat(store.url(id)).hasToString("https://shots.example/base/screenshots/" + id);
    assertThat(store.routePrefix()).isEqualTo("/base/screenshots");
  }

  @Test
  void withoutABaseUrlTheUrlsPointAtTheListenerServingTheStore() {
    ScreenshotStore unconfigured = new ScreenshotStore(null, clock, new SecureRandom());
    assertThat(unconfigured.routePrefix()).isEqualTo("/screenshots");
    String id = unconfigured.publish("s1", null, TestPngs.png(1, 1)).id();
    assertThatThrownBy(() -> unconfigured.url(id))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the screenshot listener is not running yet");
    unconfigured.servedAt(URI.create("http://127.0.0.1:41234"));
    assertThat(unconfigured.url(id)).hasToString("http://127.0.0.1:41234/screenshots/" + id);
    // A configured base URL (a proxy in front of the server) is kept.
    store.servedAt(URI.create("http://127.0.0.1:41234"));
    assertThat(store.url(id)).hasToString("https://shots.example/base/screenshots/" + id);
  }

  @Test
  void oneIdentityCannotHoldMoreThanItsShareWhileOthersStillPublish() {
    byte[] png = TestPngs.png(64, 64);
    long share = 3L * png.length;
    for (int i = 0; i < 3; i++) {
      store.publish("s1", "bob", null, png, share);
    }
    assertThatThrownBy(() -> store.publish("s2", "bob", null, png, share))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage(
            "identity \"bob\" already holds "
                + share
                + " of its "
                + share
                + " bytes of screenshots (sandbox.identity_limits.screenshot_mb);"
                + " retry after older screenshots expire");
    assertThat(store.publish("s3", "alice", null, png, share).id()).isNotEmpty();
    assertThat(store.bytesOf("bob")).isEqualTo(share);
    // Expired screenshots give the share back.
    clock.now = T0.plus(ScreenshotStore.RETENTION);
    assertThat(store.publish("s1", "bob", null, png, share).id()).isNotEmpty();
  }

  @Test
  void idsAreDistinct() {
    String a = store.publish("s1", null, TestPngs.png(1, 1)).id();
    String b = store.publish("s1", null, TestPngs.png(1, 1)).id();
    assertThat(a).isNotEqualTo(b);
  }

  @Test
  void anUnknownIdIsNotFound() {
    assertThat(store.find("0".repeat(32))).isEmpty();
  }

  @Test
  void aScreenshotExpiresAfterFiveMinutes() {
    String id = store.publish("s1", T0.plus(Duration.ofHours(1)), TestPngs.png(1, 1)).id();
    clock.now = T0.plus(Duration.ofMinutes(5)).minusSeconds(1);
    assertThat(store.find(id)).isPresent();
    clock.now = T0.plus(Duration.ofMinutes(5));
    assertThat(store.find(id)).isEmpty();
  }

  @Test
  void aScreenshotExpiresWithItsSandboxWhenThatIsSooner() {
    String id = store.publish("s1", T0.plusSeconds(60), TestPngs.png(1, 1)).id();
    clock.now = T0.plusSeconds(59);
    assertThat(store.find(id)).isPresent();
    clock.now = T0.plusSeconds(60);
    assertThat(store.find(id)).isEmpty();
  }

  @Test
  void aPinnedSandboxsScreenshotKeepsFiveMinutes() {
    ScreenshotStore.Screenshot shot = store.publish("s1", null, TestPngs.png(1, 1));
    assertThat(shot.expiresAt()).isEqualTo(T0.plus(ScreenshotStore.RETENTION));
  }

  @Test
  void anImageOver16MiBIsRefused() {
    assertThat(store.publish("s1", null, TestPngs.png(1, 1, 16 * MIB)).png()).hasSize(16 * MIB);
    assertThatThrownBy(() -> store.publish("s1", null, TestPngs.png(1, 1, 16 * MIB + 1)))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage("screenshot of 16777217 bytes exceeds the 16777216 byte limit");
  }

  @Test
  void whenFullNewPublicationsAreRefusedAndNothingIsEvicted() {
    String first = store.publish("s1", null, TestPngs.png(1, 1, 16 * MIB)).id();
    for (int i = 1; i < 8; i++) {
      store.publish("s1", null, TestPngs.png(1, 1, 16 * MIB));
    }
    assertThat(store.totalBytes()).isEqualTo(128L * MIB);
    assertThatThrownBy(() -> store.publish("s2", null, TestPngs.png(1, 1)))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage("the screenshot store is full (128 MiB); retry after older screenshots expire");
    assertThat(store.find(first)).isPresent();
  }

  @Test
  void expiredScreenshotsFreeTheirSpace() {
    for (int i = 0; i < 8; i++) {
      store.publish("s1", null, TestPngs.png(1, 1, 16 * MIB));
    }
    clock.now = T0.plus(ScreenshotStore.RETENTION);
    assertThat(store.publish("s2", null, TestPngs.png(1, 1)).sandbox()).isEqualTo("s2");
    assertThat(store.totalBytes()).isEqualTo(TestPngs.png(1, 1).length);
  }

  @Test
  void purgeForgetsOnlyThatSandboxsScreenshots() {
    String mine = store.publish("s1", null, TestPngs.png(1, 1)).id();
    String other = store.publish("s2", null, TestPngs.png(1, 1)).id();
    assertThat(store.purge("s1")).isEqualTo(1);
    assertThat(store.find(mine)).isEmpty();
    assertThat(store.find(other)).isPresent();
    assertThat(store.totalBytes()).isEqualTo(TestPngs.png(1, 1).length);
  }

  @Test
  void sweepForgetsExpiredScreenshots() {
    store.publish("s1", T0.plusSeconds(10), TestPngs.png(1, 1));
    store.publish("s1", null, TestPngs.png(1, 1));
    clock.now = T0.plusSeconds(10);
    assertThat(store.sweep()).isEqualTo(1);
  }

  @Test
  void aFileWithoutThePngSignatureIsRefused() {
    byte[] png = TestPngs.png(1, 1);
    png[1] = 'X';
    assertThatThrownBy(() -> store.publish("s1", null, png))
        .hasMessage("screenshot is not a PNG image (bad signature)");
  }

  @Test
  void aPngWhoseFirstChunkIsNotIhdrIsRefused() {
    byte[] png = TestPngs.png(1, 1);
    png[12] = 'X';
    assertThatThrownBy(() -> store.publish("s1", null, png))
        .hasMessage("screenshot is not a PNG image (IHDR must be the first chunk)");
  }

  @Test
  void aCorruptIhdrIsRefused() {
    byte[] png = TestPngs.png(1, 1);
    png[17] ^= 1;
    assertThatThrownBy(() -> store.publish("s1", null, png))
        .hasMessage("screenshot is not a PNG image (IHDR checksum mismatch)");
  }

  @Test
  void zeroDimensionsAreRefused() {
    assertThatThrownBy(() -> store.publish("s1", null, TestPngs.png(0, 10)))
        .hasMessage("screenshot has invalid dimensions 0x10");
  }

  @Test
  void morePixelsThan32MiAreRefused() {
    assertThat(store.publish("s1", null, TestPngs.png(8192, 4096)).width()).isEqualTo(8192);
    assertThatThrownBy(() -> store.publish("s1", null, TestPngs.png(8192, 4097)))
        .hasMessage("screenshot of 8192x4097 pixels exceeds the 33554432 pixel limit");
  }

  @Test
  void aTruncatedFileIsRefused() {
    assertThatThrownBy(() -> store.publish("s1", null, new byte[] {(byte) 0x89, 'P', 'N', 'G'}))
        .hasMessage("screenshot is not a PNG image (bad signature)");
  }
}
