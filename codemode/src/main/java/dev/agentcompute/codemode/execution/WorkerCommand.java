package dev.agentcompute.codemode.execution;

import dev.agentcompute.codemode.CodeMode;
import java.io.File;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The command line of a worker JVM, derived from the running JVM: same java binary, same class path
 * (Surefire's manifest-only jar, an application jar or a directory list), the worker main class,
 * fast-start flags, a heap ceiling, and a class-data-sharing archive created on first use.
 */
final class WorkerCommand {

  private static final Logger LOG = System.getLogger(WorkerCommand.class.getName());

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
    // A young generation that starts at 1 MiB (it grows with the heap): a warmed idle worker holds
    // 1.2 MiB less (38.3 -> 37.1 MiB RSS), at no measurable start CPU.
    cmd.add("-XX:NewSize=1m");
    cmd.add("-Xmx" + Math.max(16, maxHeapBytes >> 20) + "m");
    cmd.add("-XX:CICompilerCount=1");
    cmd.add("-Xlog:disable");
    cmd.add("-XX:+DisplayVMOutputToStderr");
    String cp = classPath();
    // AOT caches and CDS archives only cover jar files; a directory (or a manifest pointing at one)
    // fails them.
    if (onlyPlainJars(cp)) {
      Path aot = cachePath(java, cp, ".aot");
      if (aot != null && usable(aot)) {
        cmd.add("-XX:AOTCache=" + aot);
      } else if (aot != null) {
        cmd.add("-XX:SharedArchiveFile=" + cachePath(java, cp, ".jsa"));
        cmd.add("-XX:+AutoCreateSharedArchive");
      }
    }
    String modulePath = absolute(System.getProperty("jdk.module.path"));
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

  /**
   * Starts a worker with an environment holding only the marker, stdin/stdout piped, from the one
   * long-lived launcher thread ({@link WorkerLauncher}: a jail's lifetime follows that thread).
   */
  static Process start(List<String> command, boolean keepStderr) throws java.io.IOException {
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().clear();
    pb.environment().put(CodeMode.WORKER_MARKER, "1");
    pb.redirectInput(ProcessBuilder.Redirect.PIPE);
    pb.redirectOutput(ProcessBuilder.Redirect.PIPE);
    pb.redirectError(keepStderr ? ProcessBuilder.Redirect.PIPE : ProcessBuilder.Redirect.DISCARD);
    return WorkerLauncher.start(pb);
  }

  /** The host's class path with every entry absolute (see {@link #absolute}). */
  static String classPath() {
    return absolute(System.getProperty("java.class.path", ""));
  }

  /**
   * A path list with every entry made absolute against the host's working directory. A worker does
   * not run there: a jail's working directory is {@code /}, so a relative entry (what {@code java
   * -cp app.jar:lib/*} gives) would name another file or none. The worker then still started from
   * its AOT cache, and failed at the first class outside it, its first native call.
   */
  static String absolute(String pathList) {
    if (pathList == null || pathList.isEmpty()) {
      return pathList;
    }
    List<String> entries = new ArrayList<>();
    for (String entry : pathList.split(File.pathSeparator)) {
      // An empty entry means the host's working directory to the JVM; made absolute it would bind
      // that whole directory into the jail, so it is dropped (in the jail it named / before).
      if (!entry.isEmpty()) {
        entries.add(Path.of(entry).toAbsolutePath().normalize().toString());
      }
    }
    return String.join(File.pathSeparator, entries);
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
    String cp = classPath();
    String java = ProcessHandle.current().info().command().orElse(null);
    if (java == null || !onlyPlainJars(cp)) {
      return;
    }
    Path aot = cachePath(java, cp, ".aot");
    if (aot == null || usable(aot)) {
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
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
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
   * $TMPDIR/agentcompute-codemode-cache-<uid>}; either only if it is private to this user ({@link
   * #privateDirectory}).
   */
  static Path cacheDirectory() {
    Path dir = cacheDirectory;
    if (dir == null) {
      String systemd = System.getenv("CACHE_DIRECTORY");
      Path wanted =
          systemd != null && !systemd.isBlank()
              ? Path.of(systemd.split(":")[0], "codemode-workers")
              : Path.of(
                  System.getProperty("java.io.tmpdir"), "agentcompute-codemode-cache-" + myUid());
      dir = privateDirectory(wanted);
      cacheDirectory = dir;
    }
    return dir;
  }

  private static volatile Path cacheDirectory;

  /**
   * {@code wanted} when it is (or can be made) a directory of this process's user with mode 0700;
   * otherwise, since anyone who can write there could plant code every worker loads, it is refused
   * with a warning and a fresh private directory is used (the caches are rebuilt there).
   */
  static Path privateDirectory(Path wanted) {
    try {
      if (!Files.exists(wanted, LinkOption.NOFOLLOW_LINKS)) {
        Files.createDirectories(wanted.getParent());
        Files.createDirectory(wanted, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
      }
      Optional<String> problem = notPrivate(wanted, true);
      if (problem.isEmpty()) {
        return wanted;
      }
      LOG.log(
          Level.WARNING,
          "worker cache directory " + wanted + " refused (" + problem.get() + "); using a new one");
      return Files.createTempDirectory(
          "agentcompute-codemode-cache-", PosixFilePermissions.asFileAttribute(OWNER_ONLY));
    } catch (IOException | RuntimeException e) {
      try {
        return Files.createTempDirectory(
            "agentcompute-codemode-cache-", PosixFilePermissions.asFileAttribute(OWNER_ONLY));
      } catch (IOException again) {
        throw new java.io.UncheckedIOException(again);
      }
    }
  }

  /**
   * Why {@code path} (a cache directory or file) must not be trusted: a symbolic link, another
   * owner, or permissions for group or others; empty when only this process's user can use it.
   */
  static Optional<String> notPrivate(Path path) throws IOException {
    return notPrivate(path, true);
  }

  /**
   * As {@link #notPrivate(Path)}; a file ({@code ownerOnly} false) may be readable by others, as
   * the JVM writes it under the process's umask, but never writable by them.
   */
  static Optional<String> notPrivate(Path path, boolean ownerOnly) throws IOException {
    if (Files.isSymbolicLink(path)) {
      return Optional.of("a symbolic link");
    }
    int owner = (Integer) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    if (owner != myUid()) {
      return Optional.of("owned by uid " + owner + ", not this server's uid " + myUid());
    }
    Set<PosixFilePermission> perms = Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
    Set<PosixFilePermission> others = EnumSet.copyOf(perms);
    others.removeAll(
        ownerOnly
            ? EnumSet.of(
                PosixFilePermission.OWNER_READ,
                PosixFilePermission.OWNER_WRITE,
                PosixFilePermission.OWNER_EXECUTE)
            : EnumSet.complementOf(
                EnumSet.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE)));
    if (!others.isEmpty()) {
      return Optional.of(
          "mode " + PosixFilePermissions.toString(perms) + (ownerOnly ? ", not owner-only" : ""));
    }
    return Optional.empty();
  }

  /** A cache file that is not private is deleted (it is rebuilt); true when it may be used. */
  static boolean usable(Path cache) {
    if (!Files.exists(cache, LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    try {
      Optional<String> problem = notPrivate(cache, false);
      if (problem.isEmpty()) {
        return true;
      }
      LOG.log(Level.WARNING, "worker cache " + cache + " refused (" + problem.get() + "); rebuilt");
      Files.deleteIfExists(cache);
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, "worker cache " + cache + " cannot be checked: " + e.getMessage());
    }
    return false;
  }

  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rwx------");

  /** This process's uid: the owner of /proc/self. */
  static int myUid() {
    try {
      return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (IOException | RuntimeException e) {
      return -1;
    }
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
