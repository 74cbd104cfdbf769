package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.files.TransferGrants;
import dev.agentcompute.capabilities.files.TransferGrants.Direction;
import dev.agentcompute.capabilities.files.TransferGrants.Grant;
import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.FileInfo;
import dev.agentcompute.capabilities.model.Names;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.platform.FileDriver;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Files of any size (docs/capabilities.md#files): listings, metadata and ranged reads for the
 * model, and transfer URLs whose bodies stream between the HTTP client and the instance without
 * passing through the model or the heap. A URL's transfer runs as the identity it was issued to:
 * the sandbox and instance are looked up again then, so a sandbox deleted (or an identity no longer
 * allowed) in between fails the transfer.
 */
public final class FileService {
  /**
   * The most entries one {@code instance.file.list} describes (the rest are counted, not shown).
   */
  public static final int LIST_MAX_ENTRIES = 1000;

  private final SandboxAccess access;
  private final InstanceService instances;
  private final TransferGrants grants;

  FileService(SandboxAccess access, InstanceService instances, TransferGrants grants) {
    this.access = access;
    this.instances = instances;
    this.grants = grants;
  }

  /** An octal file mode as instance.file.write takes it. */
  public static int mode(String mode) {
    return InstanceService.parseMode(mode);
  }

  public TransferGrants grants() {
    return grants;
  }

  /** A directory's entries sorted by name, at most {@link #LIST_MAX_ENTRIES}, and how many. */
  public record Listing(List<FileInfo> entries, int total) {}

  public Listing list(String sandboxName, String name, String directory) {
    Target t = target(sandboxName, name, directory, "instance.file.list");
    FileInfo dir = stat(t, directory);
    if (!"directory".equals(dir.type())) {
      throw Errors.of(
          "path \"%s\" is a %s, not a directory, on instance \"%s\" in sandbox \"%s\"",
          directory, dir.type(), name, sandboxName);
    }
    List<String> names = new ArrayList<>(t.files.list(t.sandbox, name, directory));
    names.sort(null);
    String prefix = directory.endsWith("/") ? directory : directory + "/";
    List<FileInfo> entries = new ArrayList<>();
    for (String entry : names.subList(0, Math.min(names.size(), LIST_MAX_ENTRIES))) {
      try {
        entries.add(t.files.stat(t.sandbox, name, prefix + entry));
      } catch (BackendException e) {
        if (!e.isNotFound()) {
          throw e;
        }
        // Removed since the listing: not an entry any more.
      }
    }
    return new Listing(entries, names.size());
  }

  public FileInfo stat(String sandboxName, String name, String path) {
    return stat(target(sandboxName, name, path, "instance.file.stat"), path);
  }

  /** Bytes of a file from an offset: {@code size} is the whole file's. */
  public record Range(byte[] content, long offset, long size) {
    public long nextOffset() {
      return offset + content.length;
    }

    public boolean more() {
      return size < 0 || nextOffset() < size;
    }
  }

  /** Up to {@code length} bytes from {@code offset}; an offset at the end reads nothing. */
  public Range read(String sandboxName, String name, String path, long offset, int length) {
    Target t = target(sandboxName, name, path, "instance.file.read with offset");
    FileInfo file = regularFile(t, path);
    if (offset > file.size()) {
      throw Errors.of("offset %d is past the end of \"%s\" (%d bytes)", offset, path, file.size());
    }
    long wanted = Math.min(length, file.size() - offset);
    if (wanted == 0) {
      return new Range(new byte[0], offset, file.size());
    }
    byte[] bytes =
        t.files.download(
            t.sandbox,
            name,
            path,
            offset,
            wanted,
            grants.limits().transferTimeout(),
            (info, content) -> content.readNBytes((int) wanted));
    return new Range(bytes, offset, file.size());
  }

  /**
   * What {@code instance.file.read} returns: with a file API, {@code length} bytes from {@code
   * offset} and the file's size; without one (macOS), only from offset 0, and the size is -1 when
   * the file was cut.
   */
  public Range readText(String sandboxName, String name, String path, long offset, int length) {
    Sandbox sandbox = access.require(sandboxName);
    if (access.router().of(sandbox).files().isPresent()) {
      return read(sandboxName, name, path, offset, length);
    }
    if (offset != 0) {
      access.router().files(sandbox, "instance.file.read with offset");
    }
    InstanceService.FileRead r = instances.readFile(sandboxName, name, path, length);
    return new Range(r.content(), 0, r.truncated() ? -1 : r.content().length);
  }

  /**
   * A URL for one transfer of {@code path} by the calling identity. A download needs a regular file
   * there; an upload needs its parent directory ({@code mode}: the new file's, or null).
   */
  public Grant issue(
      String subject,
      String sandboxName,
      String name,
      String path,
      Direction direction,
      Integer mode) {
    String capability =
        direction == Direction.UPLOAD ? "instance.file.upload_url" : "instance.file.download_url";
    Target t = target(sandboxName, name, path, capability);
    if (direction == Direction.DOWNLOAD) {
      regularFile(t, path);
    } else {
      String parent = path.substring(0, Math.max(1, path.lastIndexOf('/')));
      FileInfo dir;
      try {
        dir = t.files.stat(t.sandbox, name, parent);
      } catch (BackendException e) {
        if (e.isNotFound()) {
          throw Errors.of(
              "parent directory of \"%s\" does not exist on instance \"%s\" in sandbox \"%s\"",
              path, name, sandboxName);
        }
        throw e;
      }
      if (!"directory".equals(dir.type())) {
        throw Errors.of(
            "parent of \"%s\" is a %s, not a directory, on instance \"%s\" in sandbox \"%s\"",
            path, dir.type(), name, sandboxName);
      }
      if (path.endsWith("/")) {
        throw Errors.of("path \"%s\" names a directory; give the file's path", path);
      }
    }
    return grants.issue(subject, sandboxName, name, path, direction, mode);
  }

  /**
   * Streams {@code body} ({@code length} bytes, or to its end when negative) into the grant's file.
   * More than {@code files.max_upload_bytes} is refused, by the declared length before anything is
   * sent, or when the stream passes it (the partial file is then removed).
   */
  public long upload(Grant grant, InputStream body, long length) {
    long max = grants.limits().maxUploadBytes();
    if (length > max) {
      throw tooLarge(Long.toString(length), max);
    }
    Target t = target(grant.sandbox(), grant.instance(), grant.path(), "instance.file.upload_url");
    CountingInput counted = new CountingInput(body, max);
    try {
      t.files.upload(
          t.sandbox,
          grant.instance(),
          grant.path(),
          counted,
          length,
          grant.mode(),
          grants.limits().transferTimeout());
    } catch (RuntimeException e) {
      if (counted.exceeded()) {
        removeQuietly(t, grant);
        throw tooLarge("more than " + max, max);
      }
      throw e;
    }
    if (length >= 0 && counted.count() != length) {
      throw Errors.of("upload ended after %d of the %d bytes announced", counted.count(), length);
    }
    return counted.count();
  }

  /** Streams the grant's file into {@code body}. */
  public <T> T download(Grant grant, FileDriver.Body<T> body) {
    Target t =
        target(grant.sandbox(), grant.instance(), grant.path(), "instance.file.download_url");
    return t.files.download(
        t.sandbox, grant.instance(), grant.path(), 0, -1, grants.limits().transferTimeout(), body);
  }

  private static RuntimeException tooLarge(String bytes, long max) {
    return Errors.of(
        "upload of %s bytes exceeds files.max_upload_bytes = %d; split the file or ask the"
            + " operator to raise the limit",
        bytes, max);
  }

  private void removeQuietly(Target t, Grant grant) {
    try {
      access.router().instances(t.sandbox).deleteFile(t.sandbox, grant.instance(), grant.path());
    } catch (RuntimeException e) {
      // The refusal matters more than the partial file; the agent can remove it.
    }
  }

  private record Target(Sandbox sandbox, String name, FileDriver files) {}

  private Target target(String sandboxName, String name, String path, String capability) {
    Sandbox sandbox = access.require(sandboxName);
    Names.require(name);
    if (!InstanceService.isAbsolute(path) || !path.startsWith("/")) {
      throw Errors.of("path must be an absolute path");
    }
    FileDriver files = access.router().files(sandbox, capability);
    instances.require(sandbox, name);
    return new Target(sandbox, name, files);
  }

  private FileInfo stat(Target t, String path) {
    try {
      return t.files.stat(t.sandbox, t.name, path);
    } catch (BackendException e) {
      if (e.isNotFound()) {
        // The text instance.file.read has always had, for every file capability.
        throw Errors.of(
            "file not found on instance \"%s\" in sandbox \"%s\"", t.name, t.sandbox.name());
      }
      throw e;
    }
  }

  private FileInfo regularFile(Target t, String path) {
    FileInfo file = stat(t, path);
    if (!file.isRegularFile()) {
      throw Errors.of(
          "path is not a regular file on instance \"%s\" in sandbox \"%s\"",
          t.name, t.sandbox.name());
    }
    return file;
  }

  /** Counts what passes and fails the stream once more than {@code max} bytes came. */
  private static final class CountingInput extends InputStream {
    private final InputStream in;
    private final long max;
    private volatile long count;
    private volatile boolean exceeded;

    CountingInput(InputStream in, long max) {
      this.in = in;
      this.max = max;
    }

    long count() {
      return count;
    }

    boolean exceeded() {
      return exceeded;
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b >= 0) {
        note(1);
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int off, int len) throws IOException {
      int n = in.read(buffer, off, len);
      if (n > 0) {
        note(n);
      }
      return n;
    }

    private void note(int n) throws IOException {
      count += n;
      if (count > max) {
        exceeded = true;
        throw new IOException("upload exceeds files.max_upload_bytes = " + max);
      }
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
