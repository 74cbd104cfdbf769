package dev.agentcompute.codemode.execution;

import dev.agentcompute.codemode.CodeMode;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The command line of a worker JVM, derived from the running JVM: same java binary, same class path
 * (Surefire's manifest-only jar, an application jar or a directory list), the worker main class,
 * fast-start flags, a heap ceiling, and a class-data-sharing archive created on first use.
 */
final class WorkerCommand {

  static final String WORKER_MAIN = "dev.agentcompute.codemode.worker.WorkerMain";

  /** Exit status of a JVM that ran out of heap with {@code -XX:+ExitOnOutOfMemoryError}. */
  static final int OUT_OF_MEMORY_EXIT = 3;

  private WorkerCommand() {}

  static List<String> build(long maxHeapBytes) {
    String java =
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    List<String> cmd = new ArrayList<>();
    cmd.add(java);
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-XX:-UsePerfData");
    cmd.add("-XX:+ExitOnOutOfMemoryError");
    cmd.add("-Xss4m");
    cmd.add("-Xms8m");
    cmd.add("-Xmx" + Math.max(16, maxHeapBytes >> 20) + "m");
    cmd.add("-XX:CICompilerCount=1");
    cmd.add("-Xlog:disable");
    cmd.add("-XX:+DisplayVMOutputToStderr");
    String cp = System.getProperty("java.class.path", "");
    // AOT caches and CDS archives only cover jar files; a directory (or a manifest pointing at one)
    // fails them.
    if (onlyPlainJars(cp)) {
      Path aot = cachePath(java, cp, ".aot");
      if (aot != null && Files.isRegularFile(aot)) {
        cmd.add("-XX:AOTCache=" + aot);
      } else if (aot != null) {
        cmd.add("-XX:SharedArchiveFile=" + cachePath(java, cp, ".jsa"));
        cmd.add("-XX:+AutoCreateSharedArchive");
      }
    }
    String modulePath = System.getProperty("jdk.module.path");
    if (!cp.isEmpty()) {
      cmd.add("-cp");
      cmd.add(cp);
    }
    if (modulePath != null && !modulePath.isEmpty()) {
      cmd.add("--module-path");
      cmd.add(modulePath);
      cmd.add("--add-modules");
      cmd.add("ALL-MODULE-PATH");
    }
    cmd.add(WORKER_MAIN);
    return List.copyOf(cmd);
  }

  /** Starts a worker with an environment holding only the marker, stdin/stdout piped. */
  static Process start(List<String> command, boolean keepStderr) throws java.io.IOException {
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().clear();
    pb.environment().put(CodeMode.WORKER_MARKER, "1");
    pb.redirectInput(ProcessBuilder.Redirect.PIPE);
    pb.redirectOutput(ProcessBuilder.Redirect.PIPE);
    pb.redirectError(keepStderr ? ProcessBuilder.Redirect.PIPE : ProcessBuilder.Redirect.DISCARD);
    return pb.start();
  }

  private static boolean onlyPlainJars(String cp) {
    if (cp.isEmpty()) {
      return false;
    }
    for (String entry : cp.split(File.pathSeparator)) {
      if (!entry.endsWith(".jar") || entry.contains("surefire") || !new File(entry).isFile()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Creates the Java AOT cache of the worker (class loading, linking and profiles of a worker that
   * warmed the interpreter) once per java binary and class path, when the class path is all jars.
   * Best effort: without it workers start with a class-data-sharing archive.
   */
  static void prepareAotCache(long maxHeapBytes) {
    String cp = System.getProperty("java.class.path", "");
    String java = ProcessHandle.current().info().command().orElse(null);
    if (java == null || !onlyPlainJars(cp)) {
      return;
    }
    Path aot = cachePath(java, cp, ".aot");
    if (aot == null || Files.isRegularFile(aot)) {
      return;
    }
    List<String> cmd = new ArrayList<>(build(maxHeapBytes));
    cmd.removeIf(
        a ->
            a.startsWith("-XX:SharedArchiveFile=")
                || a.equals("-XX:+AutoCreateSharedArchive")
                || a.startsWith("-Xlog"));
    try {
      Path tmp = Files.createTempFile(aot.getParent(), "training-", ".aot");
      Files.delete(tmp);
      cmd.add(1, "-XX:AOTCacheOutput=" + tmp);
      ProcessBuilder pb = new ProcessBuilder(cmd);
      pb.environment().clear();
      pb.environment().put(CodeMode.WORKER_MARKER, "1");
      pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
      pb.redirectError(ProcessBuilder.Redirect.DISCARD);
      Process p = pb.start();
      byte[] probe = "{\"type\":\"probe\",\"version\":1}".getBytes(StandardCharsets.UTF_8);
      try (var out = p.getOutputStream()) {
        out.write(new byte[] {0, 0, 0, (byte) probe.length});
        out.write(probe);
      }
      if (p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0 && Files.isRegularFile(tmp)) {
        Files.move(tmp, aot, StandardCopyOption.ATOMIC_MOVE);
        prune(aot.getParent(), aot, KEPT_CACHES);
      } else {
        p.destroyForcibly();
        Files.deleteIfExists(tmp);
      }
    } catch (Exception e) {
      // Optional optimisation: workers still start without the cache.
    }
  }

  /** Caches of other class paths kept besides the current one (each is ~13 MB). */
  static final int KEPT_CACHES = 3;

  /** A training output older than this belongs to a host that died while training. */
  static final java.time.Duration ABANDONED_TRAINING = java.time.Duration.ofMinutes(10);

  /**
   * Where worker caches live: systemd's {@code CacheDirectory=} ({@code $CACHE_DIRECTORY}, kept
   * across restarts, unlike a unit's private /tmp), else {@code
   * $TMPDIR/agentcompute-codemode-cache}.
   */
  static Path cacheDirectory() {
    String systemd = System.getenv("CACHE_DIRECTORY");
    if (systemd != null && !systemd.isBlank()) {
      return Path.of(systemd.split(":")[0], "codemode-workers");
    }
    return Path.of(System.getProperty("java.io.tmpdir"), "agentcompute-codemode-cache");
  }

  /**
   * Deletes caches of earlier builds (every rebuild of a jar makes a new key): keeps {@code
   * current} and the {@code keep} most recently written others, and removes abandoned training
   * outputs. Best effort: another host may be deleting the same files.
   */
  static void prune(Path dir, Path current, int keep) {
    List<Path> others = new ArrayList<>();
    long abandoned = System.currentTimeMillis() - ABANDONED_TRAINING.toMillis();
    try (var entries = Files.list(dir)) {
      for (Path p : (Iterable<Path>) entries::iterator) {
        String name = p.getFileName().toString();
        if (name.startsWith("training-") && Files.getLastModifiedTime(p).toMillis() < abandoned) {
          Files.deleteIfExists(p);
        } else if (name.startsWith("worker-") && !p.equals(current)) {
          others.add(p);
        }
      }
      others.sort(java.util.Comparator.comparingLong(WorkerCommand::modified).reversed());
      for (Path old : others.subList(Math.min(keep, others.size()), others.size())) {
        Files.deleteIfExists(old);
      }
    } catch (IOException | RuntimeException e) {
      // Pruning is housekeeping: a failure leaves files, never breaks a worker start.
    }
  }

  private static long modified(Path p) {
    try {
      return Files.getLastModifiedTime(p).toMillis();
    } catch (IOException e) {
      return 0;
    }
  }

  private static Path cachePath(String javaBin, String cp, String suffix) {
    try {
      Path dir = cacheDirectory();
      Files.createDirectories(dir);
      java.security.MessageDigest md = java.security.MessageDigest.getInstance("SHA-256");
      md.update(
          (javaBin
                  + File.pathSeparator
                  + System.getProperty("java.version")
                  + File.pathSeparator
                  + cp)
              .getBytes(StandardCharsets.UTF_8));
      for (String entry : cp.split(File.pathSeparator)) {
        if (!entry.isEmpty()) {
          File f = new File(entry);
          md.update(Long.toString(f.lastModified()).getBytes(StandardCharsets.UTF_8));
        }
      }
      return dir.resolve("worker-" + HexFormat.of().formatHex(md.digest(), 0, 12) + suffix);
    } catch (Exception e) {
      return null;
    }
  }
}
