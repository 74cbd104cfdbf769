package dev.agentcompute.server.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Finds the commit checked out in the git repository that contains a directory, by reading {@code
 * .git/HEAD}, loose refs and {@code packed-refs} directly (no git binary needed).
 */
final class GitCommit {
  private static final Pattern HASH = Pattern.compile("[0-9a-f]{40}(?:[0-9a-f]{24})?");

  private GitCommit() {}

  static Optional<String> of(Path directory) {
    for (Path dir = directory.toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path dotGit = dir.resolve(".git");
      if (Files.exists(dotGit)) {
        try {
          return commitIn(gitDir(dotGit));
        } catch (IOException e) {
          return Optional.empty();
        }
      }
    }
    return Optional.empty();
  }

  /** A worktree or submodule has a {@code .git} file pointing at the real directory. */
  private static Path gitDir(Path dotGit) throws IOException {
    if (Files.isDirectory(dotGit)) {
      return dotGit;
    }
    String line = Files.readString(dotGit, StandardCharsets.UTF_8).strip();
    if (!line.startsWith("gitdir:")) {
      throw new IOException("not a gitdir file");
    }
    return dotGit.getParent().resolve(line.substring("gitdir:".length()).strip()).normalize();
  }

  private static Optional<String> commitIn(Path gitDir) throws IOException {
    String head = Files.readString(gitDir.resolve("HEAD"), StandardCharsets.UTF_8).strip();
    if (HASH.matcher(head).matches()) {
      return Optional.of(head);
    }
    if (!head.startsWith("ref:")) {
      return Optional.empty();
    }
    String ref = head.substring("ref:".length()).strip();
    Path common = commonDir(gitDir);
    for (Path base : new Path[] {gitDir, common}) {
      Path loose = base.resolve(ref);
      if (Files.isRegularFile(loose)) {
        String hash = Files.readString(loose, StandardCharsets.UTF_8).strip();
        if (HASH.matcher(hash).matches()) {
          return Optional.of(hash);
        }
      }
    }
    Path packed = common.resolve("packed-refs");
    if (Files.isRegularFile(packed)) {
      for (String line : Files.readAllLines(packed, StandardCharsets.UTF_8)) {
        String[] parts = line.split(" ", 2);
        if (parts.length == 2 && parts[1].equals(ref) && HASH.matcher(parts[0]).matches()) {
          return Optional.of(parts[0]);
        }
      }
    }
    return Optional.empty();
  }

  private static Path commonDir(Path gitDir) throws IOException {
    Path file = gitDir.resolve("commondir");
    if (!Files.isRegularFile(file)) {
      return gitDir;
    }
    return gitDir.resolve(Files.readString(file, StandardCharsets.UTF_8).strip()).normalize();
  }
}
