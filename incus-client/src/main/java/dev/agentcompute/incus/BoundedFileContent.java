package dev.agentcompute.incus;

/**
 * The first bytes of a file read with a limit ({@link Files#read(String, String, long)}): {@code
 * truncated} says the file had more. {@code type} is the server's {@code X-Incus-Type} ({@code
 * file}, {@code directory}, {@code symlink}; null if absent, which counts as a file); uid, gid and
 * mode are -1 when not reported.
 */
public record BoundedFileContent(
    byte[] content, boolean truncated, int uid, int gid, int mode, String type) {

  public boolean isRegularFile() {
    return type == null || "file".equals(type);
  }
}
