package dev.agentcompute.server.config;

import java.nio.file.Path;
import java.util.Optional;

/**
 * One accepted version of the configuration file: its validated content, the SHA-256 digest of the
 * exact bytes read, and the git commit checked out in the file's directory, if any.
 */
public record LoadedConfig(
    ServerConfig config, Path file, String digest, Optional<String> gitCommit) {

  /** A short form for logs and /health: {@code sha256:<first 12 hex>}. */
  public String shortDigest() {
    return "sha256:" + digest.substring(0, 12);
  }
}
