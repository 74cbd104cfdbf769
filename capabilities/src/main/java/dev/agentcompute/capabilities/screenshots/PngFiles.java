package dev.agentcompute.capabilities.screenshots;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where a store keeps the bytes of its images, by id: in memory, or as files in a scratch directory
 * ({@link ScratchDirectory}). The store's index (sandbox, size, expiry) stays in the store.
 */
interface PngFiles extends AutoCloseable {
  void write(String id, byte[] png);

  /** The image's bytes, or {@code null} when they are gone. */
  byte[] read(String id);

  void delete(String id);

  /** The directory the files are in, when on disk. */
  Optional<Path> directory();

  /** Forgets every image. */
  @Override
  void close();

  /** Images kept on the heap (tests and embedders without a scratch directory). */
  static PngFiles inMemory() {
    Map<String, byte[]> bytes = new HashMap<>();
    return new PngFiles() {
      @Override
      public void write(String id, byte[] png) {
        bytes.put(id, png);
      }

      @Override
      public byte[] read(String id) {
        return bytes.get(id);
      }

      @Override
      public void delete(String id) {
        bytes.remove(id);
      }

      @Override
      public Optional<Path> directory() {
        return Optional.empty();
      }

      @Override
      public void close() {
        bytes.clear();
      }
    };
  }
}
