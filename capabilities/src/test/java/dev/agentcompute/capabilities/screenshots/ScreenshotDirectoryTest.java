package dev.agentcompute.capabilities.screenshots;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store in {@code screenshots.dir}: images as files in a directory of the store's own, so
 * several servers share the configured directory; kept clean, and abandoned ones removed.
 */
class ScreenshotDirectoryTest {
  @TempDir Path parent;
  private static final URI BASE = URI.create("http://127.0.0.1:8081");

  private final MovableClock clock = new MovableClock();

  private ScreenshotStore open() throws Exception {
    return ScreenshotStore.inDirectory(parent, BASE, clock, new SecureRandom());
  }

  private static long files(Path dir) throws Exception {
    try (Stream<Path> list = Files.list(dir)) {
      return list.count();
    }
  }

  @Test
  void imagesAreFilesServedBackAndDeletedWhenTheyExpireOrTheirSandboxGoes() throws Exception {
    try (ScreenshotStore store = open()) {
      Path child = store.directory().orElseThrow();
      assertThat(child.getParent()).isEqualTo(parent);
      assertThat(child.getFileName().toString())
          .startsWith(".agentcompute-screenshots-" + ProcessHandle.current().pid() + "-");
      byte[] png = TestPngs.png(64, 48);
      ScreenshotStore.Screenshot one = store.publish("s1", null, png);
      ScreenshotStore.Screenshot two = store.publish("s2", null, TestPngs.png(8, 8));
      assertThat(Files.readAllBytes(child.resolve(one.id() + ".png"))).isEqualTo(png);
      assertThat(store.find(one.id()))
          .hasValueSatisfying(
              found -> {
                assertThat(found.png()).isEqualTo(png);
                assertThat(found.width()).isEqualTo(64);
              });
      assertThat(store.totalBytes()).isEqualTo(png.length + two.size());

      assertThat(store.purge("s2")).isEqualTo(1);
      assertThat(child.resolve(two.id() + ".png")).doesNotExist();
      clock.now = clock.now.plus(Duration.ofMinutes(6));
      assertThat(store.find(one.id())).isEmpty();
      assertThat(files(child)).isZero();
      assertThat(store.totalBytes()).isZero();
    }
  }

  @Test
  void closingRemovesTheStoresDirectoryAndLock() throws Exception {
    ScreenshotStore store = open();
    Path child = store.directory().orElseThrow();
    String id = store.publish("s1", null, TestPngs.png(4, 4)).id();
    assertThat(files(child)).isOne();
    store.close();
    assertThat(child).doesNotExist();
    assertThat(files(parent)).isZero();
    assertThat(store.find(id)).isEmpty();
  }

  @Test
  void serversOnTheSameDirectoryKeepTheirOwnImages() throws Exception {
    // dev/run's HTTP server and the stdio servers MCP clients start share one configuration.
    try (ScreenshotStore first = open()) {
      String one = first.publish("s1", null, TestPngs.png(4, 4)).id();
      try (ScreenshotStore second = open()) {
        assertThat(second.directory()).isNotEqualTo(first.directory());
        String two = second.publish("s2", null, TestPngs.png(4, 4)).id();
        assertThat(first.find(one)).isPresent();
        assertThat(second.find(two)).isPresent();
        assertThat(first.find(two)).isEmpty();
      }
      // The second one's close left the first one's images alone.
      assertThat(first.find(one)).isPresent();
      assertThat(files(first.directory().orElseThrow())).isOne();
    }
  }

  @Test
  void aDirectoryLeftByAServerThatDiedIsRemovedAtTheNextStart() throws Exception {
    // What a killed server leaves: its directory with an image, and a lock file nobody holds.
    Path abandoned = parent.resolve(".agentcompute-screenshots-999999-1");
    Files.createDirectories(abandoned);
    Files.write(abandoned.resolve("0123.png"), new byte[] {1, 2, 3});
    Files.createFile(parent.resolve(".agentcompute-screenshots-999999-1.lock"));
    try (ScreenshotStore store = open()) {
      assertThat(abandoned).doesNotExist();
      assertThat(parent.resolve(".agentcompute-screenshots-999999-1.lock")).doesNotExist();
      assertThat(files(parent)).isEqualTo(2); // the store's directory and its lock
    }
  }

  @Test
  void aMissingParentIsCreated() throws Exception {
    Path nested = parent.resolve("a/b");
    try (ScreenshotStore store =
        ScreenshotStore.inDirectory(nested, BASE, clock, new SecureRandom())) {
      assertThat(store.directory().orElseThrow().getParent()).isEqualTo(nested);
      assertThat(store.publish("s1", null, TestPngs.png(2, 2)).png()).isNotEmpty();
    }
  }
}
