package dev.agentcompute.capabilities.model;

import java.time.Instant;

/**
 * One path in an instance as the platform's file API describes it: {@code type} ({@code file},
 * {@code directory}, {@code symlink}), {@code size} in bytes (regular files; 0 for the others),
 * permission bits ({@code mode}), owner, and the last modification ({@link Instant#EPOCH} when the
 * platform did not say). Uid, gid and mode are -1 when not reported.
 */
public record FileInfo(
    String name, String type, long size, int mode, int uid, int gid, Instant modified) {

  public boolean isRegularFile() {
    return "file".equals(type);
  }
}
