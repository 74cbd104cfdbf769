package dev.agentcompute.capabilities.platform;

import dev.agentcompute.capabilities.model.FileInfo;
import dev.agentcompute.capabilities.model.Sandbox;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;

/**
 * Files of any size in a sandbox's instances, streamed through the platform's file API
 * (docs/capabilities.md#files): metadata, directory listings, ranged reads, and transfers that
 * never hold a body in memory. A platform without it answers the file capabilities that need it
 * with a refusal naming the platform.
 */
public interface FileDriver {
  /** What is at {@code path}; a missing path is a not-found failure. */
  FileInfo stat(Sandbox sandbox, String instance, String path);

  /** The entry names of a directory, unsorted. */
  List<String> list(Sandbox sandbox, String instance, String directory);

  /** Receives a file's bytes as they arrive. */
  @FunctionalInterface
  interface Body<T> {
    /**
     * @param file the file ({@code size} is the whole file's)
     * @param content the bytes asked for, to be read before returning
     */
    T accept(FileInfo file, InputStream content) throws IOException;
  }

  /**
   * Streams {@code length} bytes from {@code offset} ({@code length < 0}: to the end) into {@code
   * body}; the offset must lie inside the file. An {@link IOException} of the body comes back
   * wrapped in {@link java.io.UncheckedIOException}.
   */
  <T> T download(
      Sandbox sandbox,
      String instance,
      String path,
      long offset,
      long length,
      Duration timeout,
      Body<T> body);

  /**
   * Creates or replaces a file from {@code content}: {@code length} bytes, or to its end when
   * {@code length < 0}; {@code mode} only when not null.
   */
  void upload(
      Sandbox sandbox,
      String instance,
      String path,
      InputStream content,
      long length,
      Integer mode,
      Duration timeout);
}
