package dev.agentcompute.capabilities.screenshots;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * Where a store keeps its PNG files ({@code screenshots.dir},
 * docs/configuration.md#configuration-file): the child {@code .agentcompute-screenshots} of the
 * configured parent, held under an exclusive lock on {@code .agentcompute-screenshots.lock} for the
 * server's lifetime (a second server on the same directory is refused: its files would be cleared
 * under the first), emptied when taken and when closed. Files are written to a temporary name and
 * moved into place, so a reader never sees half an image.
 */
final class ScratchDirectory implements PngFiles {
  static final String CHILD = ".agentcompute-screenshots";
  static final String LOCK = CHILD + ".lock";

  private final Path dir;
  private final FileChannel lockChannel;
  private final FileLock lock;

  private ScratchDirectory(Path dir, FileChannel lockChannel, FileLock lock) {
    this.dir = dir;
    this.lockChannel = lockChannel;
    this.lock = lock;
  }

  /**
   * Takes {@code parent} (created when missing) for one store.
   *
   * @throws IllegalStateException {@code screenshot directory is already in use: <parent>} when
   *     another store holds it
   */
  static ScratchDirectory take(Path parent) throws IOException {
    Files.createDirectories(parent);
    FileChannel channel =
        FileChannel.open(parent.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      channel.close();
      throw new IllegalStateException("screenshot directory is already in use: " + parent);
    }
    Path dir = parent.resolve(CHILD);
    try {
      Files.createDirectories(dir);
      clear(dir);
    } catch (IOException | RuntimeException e) {
      lock.release();
      channel.close();
      throw e;
    }
    return new ScratchDirectory(dir, channel, lock);
  }

  @Override
  public Optional<Path> directory() {
    return Optional.of(dir);
  }

  @Override
  public void write(String id, byte[] png) {
    Path target = file(id);
    Path temp = dir.resolve(id + ".tmp");
    try {
      Files.write(temp, png);
      try {
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      delete(temp);
      throw new UncheckedIOException("could not write screenshot " + id, e);
    }
  }

  @Override
  public byte[] read(String id) {
    try {
      return Files.readAllBytes(file(id));
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw new UncheckedIOException("could not read screenshot " + id, e);
    }
  }

  @Override
  public void delete(String id) {
    delete(file(id));
  }

  private Path file(String id) {
    return dir.resolve(id + ".png");
  }

  private static void delete(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      // Cleared at the next start at the latest.
    }
  }

  private static void clear(Path dir) throws IOException {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        if (Files.isRegularFile(entry, java.nio.file.LinkOption.NOFOLLOW_LINKS)
            || Files.isSymbolicLink(entry)) {
          Files.delete(entry);
        }
      }
    }
  }

  /** Empties the directory and gives the lock up. */
  @Override
  public void close() {
    try {
      clear(dir);
    } catch (IOException e) {
      // Cleared at the next start.
    } finally {
      try {
        lock.release();
        lockChannel.close();
      } catch (IOException ignored) {
        // The lock goes with the process.
      }
    }
  }
}
