package dev.agentcompute.server.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Validates the {@code audit} section: the optional JSON-lines file of the audit trail, the size at
 * which it is rotated and how many files (the current one included) are kept. Without {@code file}
 * the trail goes to the {@code agentcompute.audit} logger only.
 */
final class AuditSettings {
  static final long DEFAULT_MAX_FILE_MB = 100;
  static final long MAX_FILE_MB = 1_000_000;
  static final long DEFAULT_MAX_FILES = 10;
  static final long MAX_FILES = 1000;

  private AuditSettings() {}

  static ServerConfig.Audit load(
      RuntimeConfig.Audit raw, Function<String, Path> resolve, List<String> problems) {
    RuntimeConfig.Audit a = raw != null ? raw : new RuntimeConfig.Audit(null, null, null);
    Optional<Path> file = Optional.empty();
    if (a.file() != null) {
      if (a.file().isBlank()) {
        problems.add("audit.file must not be empty (leave it out to log the trail only)");
      } else {
        Path path = resolve.apply(a.file());
        Path dir = path.toAbsolutePath().getParent();
        if (Files.isDirectory(path)) {
          problems.add("audit.file " + path + " is a directory: name a file in it");
        } else if (dir == null || !Files.isDirectory(dir)) {
          problems.add("audit.file " + path + ": its directory does not exist; create it first");
        } else {
          file = Optional.of(path);
        }
      }
    }
    long mb =
        bounded("audit.max_file_mb", a.maxFileMb(), DEFAULT_MAX_FILE_MB, MAX_FILE_MB, problems);
    long files = bounded("audit.max_files", a.maxFiles(), DEFAULT_MAX_FILES, MAX_FILES, problems);
    return new ServerConfig.Audit(file, mb * 1024 * 1024, (int) files);
  }

  private static long bounded(
      String key, Long value, long defaultValue, long max, List<String> problems) {
    if (value == null) {
      return defaultValue;
    }
    if (value < 1 || value > max) {
      problems.add(key + " must be between 1 and " + max + ", got " + value);
      return defaultValue;
    }
    return value;
  }
}
