package dev.agentcompute.incus;

import java.util.HashMap;
import java.util.Map;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;

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
