package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.FileInfo;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.platform.FileDriver;
import dev.agentcompute.incus.FileStat;
import dev.agentcompute.incus.IncusClient;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Files over incusd's file API ({@code /1.0/instances/<name>/files}) in the sandbox's project:
 * {@code HEAD} for metadata, a directory's {@code GET} for its names, {@code Range} requests for
 * offsets, and bodies streamed both ways.
 */
final class IncusFileDriver implements FileDriver {
  private final InstanceReader reader;

  IncusFileDriver(InstanceReader reader) {
    this.reader = reader;
  }

  @Override
  public FileInfo stat(Sandbox sandbox, String instance, String path) {
    return info(path, reader.in(sandbox).files().stat(instance, path));
  }

  @Override
  public List<String> list(Sandbox sandbox, String instance, String directory) {
    return reader.in(sandbox).files().list(instance, directory);
  }

  @Override
  public <T> T download(
      Sandbox sandbox,
      String instance,
      String path,
      long offset,
      long length,
      Duration timeout,
      Body<T> body) {
    return reader
        .in(sandbox)
        .files()
        .download(
            instance,
            path,
            offset,
            length,
            timeout,
            (stat, content) -> body.accept(info(path, stat), content));
  }

  @Override
  public void upload(
      Sandbox sandbox,
      String instance,
      String path,
      InputStream content,
      long length,
      Integer mode,
      Duration timeout) {
    IncusClient project = reader.in(sandbox);
    IncusFailures.writing(
        project,
        instance,
        () -> project.files().upload(instance, path, content, length, mode, timeout));
  }

  private static FileInfo info(String path, FileStat stat) {
    int slash = path.lastIndexOf('/');
    String name = slash >= 0 && slash < path.length() - 1 ? path.substring(slash + 1) : path;
    return new FileInfo(
        name,
        stat.type(),
        Math.max(0, stat.size()),
        stat.mode(),
        stat.uid(),
        stat.gid(),
        stat.modified() == null ? Instant.EPOCH : stat.modified());
  }
}
