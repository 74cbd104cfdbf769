package dev.agentcompute.capabilities.adapter.instance;

import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.adapter.instance.InstanceCapabilities.ReadInput;
import dev.agentcompute.capabilities.adapter.instance.InstanceCapabilities.ReadOutput;
import dev.agentcompute.capabilities.files.TransferGrants.Direction;
import dev.agentcompute.capabilities.files.TransferGrants.Grant;
import dev.agentcompute.capabilities.model.ComputeLimits;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.FileInfo;
import dev.agentcompute.capabilities.model.Timestamps;
import dev.agentcompute.capabilities.service.FileService;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * instance.file.list, .stat, and the transfer URLs (docs/capabilities.md#files): files of any size
 * without their bodies passing through the model.
 */
public final class FileCapabilities {
  private FileCapabilities() {}

  public record PathInput(String sandbox, String name, String path) {}

  public record FileItem(
      String name, String type, long size, String mode, long uid, long gid, String modified) {
    static FileItem of(FileInfo f) {
      return new FileItem(
          f.name(),
          f.type(),
          f.size(),
          f.mode() < 0 ? "" : String.format("%04o", f.mode()),
          f.uid(),
          f.gid(),
          Timestamps.output(f.modified()));
    }
  }

  public record ListOutput(List<FileItem> items, long total, boolean truncated) {}

  public record UploadInput(String sandbox, String name, String path, Optional<String> mode) {}

  public record UrlOutput(String url, String method, String expires_at, long max_bytes) {}

  public static List<CapabilityDefinition<?, ?>> definitions(FileService files) {
    return List.of(
        new CapabilityDefinition<>(
            "instance.file.list",
            "List a directory of an instance: each entry's name, type, size, mode and mtime.",
            List.of("ls", "directory", "dir"),
            PathInput.class,
            ListOutput.class,
            (subject, in) -> {
              FileService.Listing l = files.list(in.sandbox(), in.name(), in.path());
              return new ListOutput(
                  l.entries().stream().map(FileItem::of).toList(),
                  l.total(),
                  l.total() > l.entries().size());
            }),
        new CapabilityDefinition<>(
            "instance.file.stat",
            "Describe one path of an instance: type, size, mode, owner and mtime.",
            List.of("stat", "file size", "exists"),
            PathInput.class,
            FileItem.class,
            (subject, in) -> FileItem.of(files.stat(in.sandbox(), in.name(), in.path()))),
        new CapabilityDefinition<>(
            "instance.file.upload_url",
            "A short-lived, single-use URL to PUT a file of any size into an instance.",
            List.of("upload", "large file", "put file", "url"),
            UploadInput.class,
            UrlOutput.class,
            (subject, in) ->
                url(
                    files,
                    files.issue(
                        subject == null ? "" : subject,
                        in.sandbox(),
                        in.name(),
                        in.path(),
                        Direction.UPLOAD,
                        in.mode()
                            .filter(m -> !m.isEmpty())
                            .map(FileCapabilities::mode)
                            .orElse(null)),
                    files.grants().limits().maxUploadBytes())),
        new CapabilityDefinition<>(
            "instance.file.download_url",
            "A short-lived, single-use URL to GET a file of any size from an instance.",
            List.of("download", "large file", "get file", "url"),
            PathInput.class,
            UrlOutput.class,
            (subject, in) -> {
              Grant grant =
                  files.issue(
                      subject == null ? "" : subject,
                      in.sandbox(),
                      in.name(),
                      in.path(),
                      Direction.DOWNLOAD,
                      null);
              return url(files, grant, 0);
            }));
  }

  static ReadOutput read(FileService files, ReadInput in) {
    if (in.max_bytes().isPresent() && in.length().isPresent()) {
      throw Errors.of("give length or max_bytes (the same thing), not both");
    }
    OptionalLong asked = in.length().isPresent() ? in.length() : in.max_bytes();
    long length = asked.orElse(0);
    long offset = in.offset().orElse(0);
    if (length < 0) {
      // Named as the caller named it: max_bytes keeps its old text.
      throw Errors.of("%s must be non-negative", in.length().isPresent() ? "length" : "max_bytes");
    }
    if (offset < 0) {
      throw Errors.of("offset must be non-negative");
    }
    int limit =
        length == 0
            ? ComputeLimits.FILE_READ_DEFAULT_BYTES
            : (int) Math.min(length, ComputeLimits.FILE_READ_MAX_BYTES);
    FileService.Range r = files.readText(in.sandbox(), in.name(), in.path(), offset, limit);
    return new ReadOutput(
        new String(r.content(), StandardCharsets.UTF_8), r.more(), r.size(), r.nextOffset());
  }

  private static UrlOutput url(FileService files, Grant grant, long maxBytes) {
    return new UrlOutput(
        files.grants().url(grant).toString(),
        grant.direction().method(),
        Timestamps.output(grant.expiresAt()),
        maxBytes);
  }

  private static int mode(String mode) {
    return FileService.mode(mode);
  }
}
