package dev.agentcompute.codemode.execution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkerCacheTest {

  @TempDir Path dir;

  @Test
  void pruneKeepsTheCurrentCacheAndTheNewestOthers() throws IOException {
    Instant now = Instant.now();
    Path current = file("worker-current.aot", now.minusSeconds(86_400 * 30)); // old but in use
    for (int i = 1; i <= 5; i++) {
      file("worker-old" + i + ".aot", now.minusSeconds(3600L * i));
    }
    file("worker-older.jsa", now.minusSeconds(3600L * 10));
    file("training-live.aot", now.minusSeconds(60));
    file("training-dead.aot", now.minus(WorkerCommand.ABANDONED_TRAINING).minusSeconds(60));
    file("unrelated.txt", now.minusSeconds(86_400 * 365));

    WorkerCommand.prune(dir, current, 3);

    assertThat(names())
        .containsExactlyInAnyOrder(
            "worker-current.aot",
            "worker-old1.aot",
            "worker-old2.aot",
            "worker-old3.aot",
            "training-live.aot",
            "unrelated.txt");
  }

  @Test
  void pruneOfAMissingDirectoryIsHarmless() {
    WorkerCommand.prune(dir.resolve("absent"), dir.resolve("absent/worker-x.aot"), 3);
    assertThat(dir.resolve("absent")).doesNotExist();
  }

  private Path file(String name, Instant modified) throws IOException {
    Path p = Files.writeString(dir.resolve(name), name);
    Files.setLastModifiedTime(p, FileTime.from(modified));
    return p;
  }

  private java.util.List<String> names() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).toList();
    }
  }
}
