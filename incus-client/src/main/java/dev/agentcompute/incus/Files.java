package dev.agentcompute.incus;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import tools.jackson.core.type.TypeReference;

/**
 * Files inside an instance ({@code /1.0/instances/{name}/files?path=}), with the X-Incus-* headers.
 */
public final class Files {

  private final Rest rest;
  private final Scope scope;

  Files(Rest rest, Scope scope) {
    this.rest = rest;
    this.scope = scope;
  }

  /** Reads a regular file; a directory (or anything else) is refused. */
  public FileContent read(String instance, String path) {
    Transport.Response response =
        rest.raw(scope, "GET", filesPath(instance, path), Map.of(), null, rest.operationTimeout());
    String type = response.header("X-Incus-Type");
    if (!"file".equals(type)) {
      throw new IncusException.Failed(
          response.status(),
          "GET " + path + " in " + instance + ": not a regular file (type " + type + ")",
          null);
    }
    return new FileContent(
        response.body(),
        intHeader(response, "X-Incus-Uid"),
        intHeader(response, "X-Incus-Gid"),
        modeHeader(response),
        type);
  }

  /**
   * Reads at most {@code maxBytes} of a file and hangs up on the rest, so a huge (or endless) file
   * costs no more than the limit. Unlike {@link #read} it does not refuse other types: check {@link
   * BoundedFileContent#isRegularFile()} (a directory's answer is its JSON listing).
   */
  public BoundedFileContent read(String instance, String path, long maxBytes) {
    if (maxBytes < 0) {
      throw new IllegalArgumentException("maxBytes must not be negative, got " + maxBytes);
    }
    Transport.Response response =
        rest.rawBounded(scope, filesPath(instance, path), rest.operationTimeout(), maxBytes);
    return new BoundedFileContent(
        response.body(),
        response.truncated(),
        intHeader(response, "X-Incus-Uid"),
        intHeader(response, "X-Incus-Gid"),
        modeHeader(response),
        response.header("X-Incus-Type"));
  }

  /** Creates or overwrites a file; {@code mode} (e.g. 0644) only when not null. */
  public void write(String instance, String path, byte[] content, Integer mode) {
    Map<String, String> headers = new HashMap<>();
    headers.put("X-Incus-Type", "file");
    headers.put("X-Incus-Write", "overwrite");
    if (mode != null) {
      headers.put("X-Incus-Mode", String.format("%04o", mode));
    }
    Transport.Response response =
        rest.raw(
            scope,
            "POST",
            filesPath(instance, path),
            headers,
            new ByteArrayEntity(content, ContentType.APPLICATION_OCTET_STREAM),
            rest.operationTimeout());
    rest.parse(response, "POST " + path + " in " + instance);
  }

  /** What the file API says about {@code path} (a {@code HEAD}: no content is transferred). */
  public FileStat stat(String instance, String path) {
    Transport.Response response =
        rest.raw(scope, "HEAD", filesPath(instance, path), Map.of(), null, rest.operationTimeout());
    boolean file =
        response.header("X-Incus-Type") == null || "file".equals(response.header("X-Incus-Type"));
    return FileStat.of(response, file ? longHeader(response, "Content-Length") : 0);
  }

  /** The names in a directory, as the file API lists them (unsorted, without . and ..). */
  public List<String> list(String instance, String directory) {
    Transport.Response response =
        rest.raw(
            scope, "GET", filesPath(instance, directory), Map.of(), null, rest.operationTimeout());
    String type = response.header("X-Incus-Type");
    if (!"directory".equals(type)) {
      throw new IncusException.Failed(
          response.status(),
          "GET " + directory + " in " + instance + ": not a directory (type " + type + ")",
          null);
    }
    String what = "GET " + directory + " in " + instance;
    List<String> names =
        rest.convert(
            rest.parse(response, what).metadata(), new TypeReference<List<String>>() {}, what);
    return names == null ? List.of() : names;
  }

  /** Receives a downloaded file's body as it arrives. */
  @FunctionalInterface
  public interface FileSink<T> {
    /**
     * @param stat the file as the answer describes it; {@code size} is the whole file's size
     * @param body the requested bytes (all of them, or the range), read before returning
     */
    T accept(FileStat stat, InputStream body) throws IOException;
  }

  /**
   * Streams a regular file (or the {@code length} bytes from {@code offset}; {@code length < 0}
   * means to the end) into {@code sink} without holding it in memory. The range must start inside
   * the file (check {@link #stat} first). Failures of the sink itself come back as they were thrown
   * (an {@link IOException} wrapped in {@link UncheckedIOException}); the transfer then stops at
   * once.
   */
  public <T> T download(
      String instance, String path, long offset, long length, Duration timeout, FileSink<T> sink) {
    Map<String, String> headers = new HashMap<>();
    if (offset > 0 || length >= 0) {
      headers.put("Range", "bytes=" + offset + "-" + (length >= 0 ? offset + length - 1 : ""));
    }
    String what = "GET " + path + " in " + instance;
    try {
      return rest.rawStream(
          scope,
          "GET",
          filesPath(instance, path),
          headers,
          null,
          timeout,
          (head, body) -> {
            String type = head.header("X-Incus-Type");
            if (type != null && !"file".equals(type)) {
              throw new IncusException.Failed(
                  head.status(), what + ": not a regular file (type " + type + ")", null);
            }
            return sink.accept(FileStat.of(head, totalSize(head)), body);
          });
    } catch (Transport.ReaderFailed e) {
      if (e.getCause() instanceof IOException io) {
        throw new UncheckedIOException(io);
      }
      throw (RuntimeException) e.getCause();
    }
  }

  /**
   * Creates or overwrites a file from {@code body}, streamed: {@code length} bytes, or chunked to
   * the end of the stream when {@code length < 0}. {@code mode} only when not null. A body that
   * fails mid-way ends the request; what incusd had written stays.
   */
  public void upload(
      String instance, String path, InputStream body, long length, Integer mode, Duration timeout) {
    Map<String, String> headers = new HashMap<>();
    headers.put("X-Incus-Type", "file");
    headers.put("X-Incus-Write", "overwrite");
    // incusd opens the file before it reads the body: a refusal there (a full disk's "disk quota
    // exceeded") then comes back as its answer, instead of a broken pipe under a body it never
    // read.
    headers.put("Expect", "100-continue");
    if (mode != null) {
      headers.put("X-Incus-Mode", String.format("%04o", mode));
    }
    Transport.Response response =
        rest.raw(
            scope,
            "POST",
            filesPath(instance, path),
            headers,
            new StreamedBody(body, length),
            timeout);
    rest.parse(response, "POST " + path + " in " + instance);
  }

  /** The whole file's size: from {@code Content-Range} on a range answer. */
  private static long totalSize(Transport.Response head) {
    String range = head.header("Content-Range");
    if (range != null && range.lastIndexOf('/') >= 0) {
      try {
        return Long.parseLong(range.substring(range.lastIndexOf('/') + 1).strip());
      } catch (NumberFormatException e) {
        return -1;
      }
    }
    return longHeader(head, "Content-Length");
  }

  private static long longHeader(Transport.Response response, String name) {
    String value = response.header(name);
    try {
      return value == null ? -1 : Long.parseLong(value.strip());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  public void delete(String instance, String path) {
    rest.call(scope, "DELETE", filesPath(instance, path), null, null);
  }

  private static String filesPath(String instance, String path) {
    return Instances.path(instance) + "/files?path=" + Scope.encode(path);
  }

  private static int intHeader(Transport.Response response, String name) {
    String value = response.header(name);
    try {
      return value == null ? -1 : Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static int modeHeader(Transport.Response response) {
    String value = response.header("X-Incus-Mode");
    try {
      return value == null ? -1 : Integer.parseInt(value.strip(), 8);
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
