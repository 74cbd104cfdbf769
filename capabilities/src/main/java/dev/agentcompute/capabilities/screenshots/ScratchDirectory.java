package dev.agentcompute.capabilities.screenshots;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.random.RandomGenerator;

/**
 * Where a store keeps its PNG files ({@code screenshots.dir}): a child {@code
 * .agentcompute-screenshots-<pid>-<random>} of the configured parent, one per store, held under an
 * exclusive lock on the sibling file {@code <child>.lock} for the store's lifetime and emptied when
 * closed. Every server on the same configuration (dev/run's HTTP server and the stdio servers MCP
 * clients start beside it, a benchmark) therefore shares the parent without touching another's
 * images. A child whose lock nobody holds belongs to a server that died without closing its store:
 * the next store to start removes it. Files are written to a temporary name and moved into place,
 * so a reader never sees half an image.
 */
final class ScratchDirectory implements PngFiles {
  static final String PREFIX = ".agentcompute-screenshots";
  static final String LOCK_SUFFIX = ".lock";

  /**
   * Lock files this process holds. The sweep never opens them: on Linux, closing any descriptor of
   * a file drops every lock the process holds on it, so opening our own lock to test it would
   * silently give it up.
   */
  private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

  private final Path dir;
  private final Path lockFile;
  private final FileChannel lockChannel;
  private final FileLock lock;

  private ScratchDirectory(Path dir, Path lockFile, FileChannel lockChannel, FileLock lock) {
    this.dir = dir;
    this.lockFile = lockFile;
    this.lockChannel = lockChannel;
    this.lock = lock;
  }

  /** Takes a new child of {@code parent} (created when missing) for one store. */
  static ScratchDirectory take(Path parent, RandomGenerator random) throws IOException {
    Files.createDirectories(parent);
    removeAbandoned(parent);
    // A fresh name each try: another store's sweep may lock our lock file in the instant between
    // its creation and our lock (it then deletes it, believing it abandoned).
    for (int attempt = 0; ; attempt++) {
      String name =
          PREFIX
              + "-"
              + ProcessHandle.current().pid()
              + "-"
              + Integer.toHexString(random.nextInt());
      Path lockFile = parent.resolve(name + LOCK_SUFFIX);
      FileChannel channel;
      try {
        channel =
            FileChannel.open(lockFile, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      } catch (FileAlreadyExistsException e) {
        continue;
      }
      FileLock lock = tryLock(channel);
      if (lock == null) {
        channel.close();
        if (attempt < 8) {
          continue;
        }
        throw new IOException("could not lock a screenshot directory in " + parent);
      }
      Path dir = parent.resolve(name);
      try {
        Files.createDirectories(dir);
        clear(dir);
      } catch (IOException | RuntimeException e) {
        lock.release();
        channel.close();
        Files.deleteIfExists(lockFile);
        throw e;
      }
      HELD.add(lockFile.toAbsolutePath().normalize());
      return new ScratchDirectory(dir, lockFile, channel, lock);
    }
  }

  /** Removes the children of stores that ended without closing (their lock is free). */
  private static void removeAbandoned(Path parent) throws IOException {
    List<Path> locks = new ArrayList<>();
    try (DirectoryStream<Path> entries =
        Files.newDirectoryStream(parent, PREFIX + "*" + LOCK_SUFFIX)) {
      entries.forEach(locks::add);
    }
    for (Path lockFile : locks) {
      if (HELD.contains(lockFile.toAbsolutePath().normalize())) {
        continue;
      }
      try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
        FileLock lock = tryLock(channel);
        if (lock == null) {
          continue; // a live store, in this process or another
        }
        try {
          String name = lockFile.getFileName().toString();
          Path dir = parent.resolve(name.substring(0, name.length() - LOCK_SUFFIX.length()));
          if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            clear(dir);
            Files.deleteIfExists(dir);
          }
          Files.deleteIfExists(lockFile);
        } finally {
          lock.release();
        }
      } catch (NoSuchFileException e) {
        // Another store removed it first.
      } catch (IOException e) {
        // Left for the next start; it holds no live images.
      }
    }
  }

  private static FileLock tryLock(FileChannel channel) throws IOException {
    try {
      return channel.tryLock();
    } catch (OverlappingFileLockException e) {
      return null; // held by a store of this process
    }
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
        if (Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(entry)) {
          Files.delete(entry);
        }
      }
    }
  }

  /** Empties and removes the directory and gives the lock up. */
  @Override
  public void close() {
    try {
      clear(dir);
      Files.deleteIfExists(dir);
      Files.deleteIfExists(lockFile);
    } catch (IOException e) {
      // Removed by the next store to start on this parent.
    } finally {
      try {
        lock.release();
        lockChannel.close();
      } catch (IOException ignored) {
        // The lock goes with the process.
      } finally {
        HELD.remove(lockFile.toAbsolutePath().normalize());
      }
    }
  }
}
