package dev.agentcompute.capabilities.screenshots;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store in {@code screenshots.dir}: images as files, the directory locked and kept clean. */
class ScreenshotDirectoryTest {
  @TempDir Path parent;
  private static final URI BASE = URI.create("http://127.0.0.1:8081");

  private final MovableClock clock = new MovableClock();

  private Path child() {
    return parent.resolve(".agentcompute-screenshots");
  }

  private long files() throws Exception {
    try (Stream<Path> list = Files.list(child())) {
      return list.count();
    }
  }

  @Test
  void imagesAreFilesServedBackAndDeletedWhenTheyExpireOrTheirSandboxGoes() throws Exception {
    try (ScreenshotStore store =
        ScreenshotStore.inDirectory(parent, BASE, clock, new SecureRandom())) {
      assertThat(store.directory()).contains(child());
      byte[] png = TestPngs.png(64, 48);
      ScreenshotStore.Screenshot one = store.publish("s1", null, png);
      ScreenshotStore.Screenshot two = store.publish("s2", null, TestPngs.png(8, 8));
      assertThat(Files.readAllBytes(child().resolve(one.id() + ".png"))).isEqualTo(png);
      assertThat(store.find(one.id()))
          .hasValueSatisfying(
              found -> {
                assertThat(found.png()).isEqualTo(png);
                assertThat(found.width()).isEqualTo(64);
              });
      assertThat(store.totalBytes()).isEqualTo(png.length + two.size());

      assertThat(store.purge("s2")).isEqualTo(1);
      assertThat(child().resolve(two.id() + ".png")).doesNotExist();
      clock.now = clock.now.plus(Duration.ofMinutes(6));
      assertThat(store.find(one.id())).isEmpty();
      assertThat(files()).isZero();
      assertThat(store.totalBytes()).isZero();
    }
  }

  @Test
  void leftoversAreClearedAtStartAndTheDirectoryIsEmptyAfterClose() throws Exception {
    Files.createDirectories(child());
    Files.write(child().resolve("0123.png"), new byte[] {1, 2, 3});
    ScreenshotStore store = ScreenshotStore.inDirectory(parent, BASE, clock, new SecureRandom());
    assertThat(files()).isZero();
    String id = store.publish("s1", null, TestPngs.png(4, 4)).id();
    assertThat(files()).isOne();
    store.close();
    assertThat(files()).isZero();
    assertThat(store.find(id)).isEmpty();
  }

  @Test
  void aSecondStoreOnTheSameDirectoryIsRefusedUntilTheFirstCloses() throws Exception {
    ScreenshotStore first = ScreenshotStore.inDirectory(parent, BASE, clock, new SecureRandom());
    String id = first.publish("s1", null, TestPngs.png(4, 4)).id();
    assertThatThrownBy(() -> ScreenshotStore.inDirectory(parent, BASE, clock, new SecureRandom()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("screenshot directory is already in use: " + parent);
    // The refused store cleared nothing of the first one's.
    assertThat(first.find(id)).isPresent();
    first.close();
    try (ScreenshotStore second =
        ScreenshotStore.inDirectory(parent, BASE, clock, new SecureRandom())) {
      assertThat(second.directory()).contains(child());
    }
  }

  @Test
  void aMissingParentIsCreated() throws Exception {
    Path nested = parent.resolve("a/b");
    try (ScreenshotStore store =
        ScreenshotStore.inDirectory(nested, BASE, clock, new SecureRandom())) {
      assertThat(nested.resolve(".agentcompute-screenshots")).isDirectory();
      assertThat(store.publish("s1", null, TestPngs.png(2, 2)).png()).isNotEmpty();
    }
  }
}
