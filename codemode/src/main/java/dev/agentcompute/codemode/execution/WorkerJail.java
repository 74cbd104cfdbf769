package dev.agentcompute.codemode.execution;

import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.WorkerIsolation;
import java.io.File;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.jar.JarFile;

/**
 * Confines worker JVMs with bubblewrap (Debian package {@code bubblewrap}): an allow-list of
 * read-only paths (the Java runtime, /usr and its library links, the class path, including what a
 * manifest-only jar's Class-Path names, and the worker cache), a fresh /proc, /dev and /tmp, and
 * new user, network, PID, IPC, UTS and cgroup namespaces. Nothing else of the host exists inside,
 * so a worker that escaped the interpreter finds no credentials directory, Incus socket, key file
 * or network. Starting it costs a few milliseconds (bench/codemode prints both).
 */
final class WorkerJail {
  private static final Logger LOG = System.getLogger(WorkerJail.class.getName());
  private static final List<String> BWRAP_LOCATIONS = List.of("/usr/bin/bwrap", "/bin/bwrap");

  /** The worker command in force and the isolation it has. */
  record Jailed(WorkerIsolation.InForce isolation, List<String> command) {
    public Jailed {
      command = List.copyOf(command);
    }
  }

  private WorkerJail() {}

  /**
   * The command workers start with under {@code requested}: AUTO tries bubblewrap (probing a
   * confined worker) and falls back to none with a warning that says why; BUBBLEWRAP fails the
   * build instead of falling back.
   */
  static Jailed choose(WorkerIsolation requested, List<String> command, Path cacheDir)
      throws CodeModeException {
    if (requested == WorkerIsolation.NONE) {
      Probe.run(command);
      return new Jailed(WorkerIsolation.InForce.NONE, command);
    }
    Optional<String> bwrap = bwrap();
    if (bwrap.isEmpty()) {
      return fallBack(requested, command, "bwrap is not installed (Debian package bubblewrap)");
    }
    Optional<String> unusable = selfTest(bwrap.get());
    if (unusable.isPresent()) {
      return fallBack(requested, command, unusable.get());
    }
    // The jail works here, so a probe failure is the worker's own (as without a jail), never a
    // reason to drop the jail: a loaded machine missing the probe's deadline must not downgrade.
    List<String> confined = bubblewrap(bwrap.get(), command, cacheDir);
    Probe.run(confined);
    return new Jailed(WorkerIsolation.InForce.BUBBLEWRAP, confined);
  }

  /**
   * Why bubblewrap cannot confine anything on this host (a kernel or AppArmor profile without
   * unprivileged user namespaces, a service manager that forbids them), or empty when an empty jail
   * running {@code true} succeeds.
   */
  static Optional<String> selfTest(String bwrap) {
    String truth = Files.isExecutable(Path.of("/usr/bin/true")) ? "/usr/bin/true" : "/bin/true";
    try {
      Process p =
          new ProcessBuilder(bubblewrap(bwrap, List.of(truth), null))
              .redirectErrorStream(true)
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .start();
      byte[] out = p.getInputStream().readNBytes(2048);
      if (!p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return Optional.of("bubblewrap did not finish an empty jail within 30 s");
      }
      if (p.exitValue() != 0) {
        return Optional.of(
            "bubblewrap cannot create the jail here (exit "
                + p.exitValue()
                + "): "
                + new String(out, java.nio.charset.StandardCharsets.UTF_8).strip());
      }
      return Optional.empty();
    } catch (IOException e) {
      return Optional.of("bubblewrap cannot be started: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of("interrupted while testing bubblewrap");
    }
  }

  private static Jailed fallBack(WorkerIsolation requested, List<String> command, String why)
      throws CodeModeException {
    if (requested == WorkerIsolation.BUBBLEWRAP) {
      throw CodeModeException.invalidRegistration(
          "worker isolation bubblewrap was requested but " + why);
    }
    LOG.log(
        Level.WARNING,
        "CodeMode workers run WITHOUT isolation (same user, groups, files and network as the"
            + " server): "
            + why);
    Probe.run(command);
    return new Jailed(WorkerIsolation.InForce.NONE, command);
  }

  /** The bubblewrap binary, if installed. */
  static Optional<String> bwrap() {
    for (String p : BWRAP_LOCATIONS) {
      if (Files.isExecutable(Path.of(p))) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /** {@code command} confined by {@code bwrap}: see the class comment for what it can reach. */
  static List<String> bubblewrap(String bwrap, List<String> command, Path cacheDir) {
    List<String> b = new ArrayList<>();
    b.add(bwrap);
    b.addAll(
        List.of(
            "--unshare-all",
            "--die-with-parent",
            "--new-session",
            "--cap-drop",
            "ALL",
            "--uid",
            "65534",
            "--gid",
            "65534",
            "--ro-bind",
            "/usr",
            "/usr"));
    for (String top : List.of("/lib", "/lib64", "/lib32", "/bin", "/sbin")) {
      Path p = Path.of(top);
      try {
        if (Files.isSymbolicLink(p)) {
          b.addAll(List.of("--symlink", Files.readSymbolicLink(p).toString(), top));
        } else if (Files.isDirectory(p)) {
          b.addAll(List.of("--ro-bind", top, top));
        }
      } catch (IOException e) {
        // Not there: nothing to bind.
      }
    }
    // The fresh /tmp first: binds below it (Surefire's jar, the default cache) come after.
    b.addAll(List.of("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"));
    for (String path : readablePaths(command, cacheDir)) {
      b.addAll(List.of("--ro-bind-try", path, path));
    }
    b.addAll(List.of("--chdir", "/"));
    b.addAll(command);
    return List.copyOf(b);
  }

  /** The Java runtime of the command, its class and module path, and the worker cache. */
  static Set<String> readablePaths(List<String> command, Path cacheDir) {
    Set<String> paths = new LinkedHashSet<>();
    Path java = Path.of(command.getFirst()).toAbsolutePath();
    try {
      java = java.toRealPath();
    } catch (IOException e) {
      // Bind it as named.
    }
    Path home = java.getParent() == null ? null : java.getParent().getParent();
    if (home != null && home.getNameCount() > 0 && !home.startsWith("/usr")) {
      paths.add(home.toString());
    }
    for (int i = 0; i < command.size() - 1; i++) {
      String a = command.get(i);
      if (a.equals("-cp") || a.equals("-classpath") || a.equals("--module-path")) {
        for (String entry : command.get(i + 1).split(File.pathSeparator)) {
          addEntry(paths, entry);
        }
      }
    }
    if (cacheDir != null) {
      paths.add(cacheDir.toAbsolutePath().toString());
    }
    return paths;
  }

  /** A class path entry, and what a jar's manifest Class-Path names (Surefire's manifest jar). */
  private static void addEntry(Set<String> paths, String entry) {
    if (entry.isEmpty()) {
      return;
    }
    Path p = Path.of(entry).toAbsolutePath().normalize();
    if (!paths.add(p.toString()) || !entry.endsWith(".jar") || !Files.isRegularFile(p)) {
      return;
    }
    try (JarFile jar = new JarFile(p.toFile())) {
      var manifest = jar.getManifest();
      String cp = manifest == null ? null : manifest.getMainAttributes().getValue("Class-Path");
      if (cp == null) {
        return;
      }
      for (String ref : cp.trim().split("\\s+")) {
        try {
          java.net.URI uri = p.getParent().toUri().resolve(ref);
          paths.add(Path.of(uri).normalize().toString());
        } catch (RuntimeException e) {
          // Not a file URL: nothing to bind.
        }
      }
    } catch (IOException e) {
      // Unreadable jar: the probe will say so.
    }
  }
}
