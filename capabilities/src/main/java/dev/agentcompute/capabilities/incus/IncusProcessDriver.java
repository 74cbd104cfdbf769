package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.BackendException.Kind;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.ProcessEnd;
import dev.agentcompute.capabilities.model.ProcessInfo;
import dev.agentcompute.capabilities.model.ProcessStart;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.platform.ProcessDriver;
import dev.agentcompute.incus.BoundedFileContent;
import dev.agentcompute.incus.ExecRequest;
import dev.agentcompute.incus.ExecResult;
import dev.agentcompute.incus.IncusException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Background processes in Incus containers (docs/capabilities.md#background-processes): every call
 * is one exec of a small POSIX sh supervisor ({@code process-supervisor.sh}, busybox compatible)
 * that keeps each process's state and bounded output under {@code /run/agentcompute/proc/<id>} in
 * the instance. Nothing is kept here, so another server, or this one restarted, sees the same
 * processes; they end with the instance. Whether a process killed by signal 9 was the OOM killer's
 * is read from Incus's metrics ({@code incus_memory_OOM_kills_total} of the instance), since a
 * container's guest often cannot read its own memory cgroup. Incus failures are translated once, by
 * type, at the port ({@link IncusPorts.Processes}).
 */
final class IncusProcessDriver implements ProcessDriver {
  /** The supervisor, sent with every call: nothing is installed in the instance. */
  static final String SCRIPT = load();

  /** One supervisor call: it only starts, reads or signals, so this is generous. */
  private static final Duration CALL_BUDGET = Duration.ofSeconds(60);

  /** The supervisor's exit codes (process-supervisor.sh). */
  private static final int REFUSED_AT_LIMIT = 75;

  private static final int TOOL_MISSING = 69;
  private static final int NOT_FOUND = 66;
  private static final int ALREADY_ENDED = 65;

  private static final String OOM_METRIC = "incus_memory_OOM_kills_total{";

  private final InstanceReader reader;

  IncusProcessDriver(InstanceReader reader) {
    this.reader = reader;
  }

  private static String load() {
    try (InputStream in = IncusProcessDriver.class.getResourceAsStream("process-supervisor.sh")) {
      if (in == null) {
        throw new IllegalStateException("process-supervisor.sh is missing from the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public OptionalInt start(Sandbox sandbox, String instance, ProcessStart start) {
    start.cwd().ifPresent(cwd -> requireDirectory(sandbox, instance, cwd));
    if (start.uid().isPresent() && start.uid().getAsInt() != 0) {
      // The directory is made world-writable (sticky) by root, so the user's supervisor can
      // create its entry there.
      requireSuccess(instance, supervise(sandbox, instance, Map.of(), null, null, "prepare"));
    }
    Map<String, String> env = new HashMap<>(start.env());
    env.put("AC_PROC_SCRIPT", SCRIPT);
    long oomKills = oomKills(sandbox, instance);
    ExecResult r =
        supervise(
            sandbox,
            instance,
            env,
            start.cwd().orElse(null),
            start.uid().isPresent() ? start.uid().getAsInt() : null,
            "start",
            start.id(),
            Integer.toString(start.maxRunning()),
            Long.toString(start.outputCapBytes()),
            Long.toString(start.timeout().map(Duration::toSeconds).orElse(0L)),
            Long.toString(oomKills),
            start.command());
    if (r.exitCode() == REFUSED_AT_LIMIT) {
      return OptionalInt.of(Integer.parseInt(r.stdoutText().strip()));
    }
    if (r.exitCode() == TOOL_MISSING) {
      throw Errors.of(
          "instance \"%s\" in sandbox \"%s\" has no %s, which background processes need (with"
              + " setsid, mkfifo, dd and stat); install it in the image, or run the command in the"
              + " foreground with instance.exec(timeout_seconds=...)",
          instance, sandbox.name(), r.stdoutText().strip());
    }
    requireSuccess(instance, r);
    return OptionalInt.empty();
  }

  @Override
  public List<ProcessInfo> list(Sandbox sandbox, String instance) {
    ExecResult r = supervise(sandbox, instance, Map.of(), null, null, "show");
    requireSuccess(instance, r);
    return parse(sandbox, instance, r.stdoutText());
  }

  @Override
  public Optional<ProcessInfo> find(Sandbox sandbox, String instance, String id) {
    ExecResult r = supervise(sandbox, instance, Map.of(), null, null, "show", id);
    requireSuccess(instance, r);
    return parse(sandbox, instance, r.stdoutText()).stream().findFirst();
  }

  @Override
  public Optional<Chunk> read(
      Sandbox sandbox,
      String instance,
      String id,
      long stdoutOffset,
      long stderrOffset,
      int maxBytes) {
    ExecResult r =
        supervise(
            sandbox,
            instance,
            Map.of(),
            null,
            null,
            "output",
            id,
            Long.toString(stdoutOffset),
            Long.toString(stderrOffset),
            Integer.toString(maxBytes));
    if (r.exitCode() == NOT_FOUND) {
      return Optional.empty();
    }
    requireSuccess(instance, r);
    return Optional.of(new Chunk(r.stdout(), r.stderr()));
  }

  @Override
  public Signalled signal(Sandbox sandbox, String instance, String id, String signal) {
    ExecResult r = supervise(sandbox, instance, Map.of(), null, null, "kill", id, signal);
    return switch (r.exitCode()) {
      case NOT_FOUND -> Signalled.NOT_FOUND;
      case ALREADY_ENDED -> Signalled.ALREADY_ENDED;
      default -> {
        requireSuccess(instance, r);
        yield Signalled.SENT;
      }
    };
  }

  /**
   * One run of the supervisor as root (or {@code uid}). A missing instance is said here; every
   * other Incus failure is translated once, at the port ({@link IncusPorts.Processes}).
   */
  private ExecResult supervise(
      Sandbox sandbox,
      String instance,
      Map<String, String> env,
      String cwd,
      Integer uid,
      String... arguments) {
    List<String> argv = new ArrayList<>(List.of("sh", "-c", SCRIPT, "ac-proc"));
    argv.addAll(List.of(arguments));
    ExecRequest request = new ExecRequest(argv, env, cwd, uid, new byte[0], CALL_BUDGET);
    try {
      ExecResult result = reader.in(sandbox).instances().exec(instance, request);
      if (result.timedOut()) {
        throw new BackendException(
            Kind.UNAVAILABLE,
            "process supervisor in " + instance + " did not answer within " + CALL_BUDGET);
      }
      return result;
    } catch (IncusException.NotFound e) {
      throw Errors.instanceNotFound(instance, sandbox.name());
    }
  }

  private static void requireSuccess(String instance, ExecResult r) {
    if (r.exitCode() != 0) {
      throw new BackendException(
          Kind.FAILED,
          "process supervisor in "
              + instance
              + " exited with "
              + r.exitCode()
              + ": "
              + r.stderrText().strip());
    }
  }

  /** The supervisor's {@code key=value} records, each ended by a line {@code .}. */
  private List<ProcessInfo> parse(Sandbox sandbox, String instance, String text) {
    List<ProcessInfo> out = new ArrayList<>();
    Map<String, String> fields = new HashMap<>();
    Long oomKillsNow = null;
    for (String line : text.split("\n")) {
      if (line.equals(".")) {
        ProcessInfo info = info(fields);
        if (maybeOom(info, fields)) {
          if (oomKillsNow == null) {
            oomKillsNow = oomKills(sandbox, instance);
          }
          if (oomKillsNow > parseLong(fields.get("oom0"), Long.MAX_VALUE)) {
            info = withEnd(info, ProcessEnd.OOM_KILLED);
          }
        }
        out.add(info);
        fields.clear();
        continue;
      }
      int eq = line.indexOf('=');
      if (eq > 0) {
        fields.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return out;
  }

  /** Killed by signal 9, not by instance.process.kill: the OOM killer's, if Incus counted one. */
  private static boolean maybeOom(ProcessInfo info, Map<String, String> fields) {
    return info.end().orElse(null) == ProcessEnd.KILLED
        && info.signal().orElse(0) == 9
        && !fields.containsKey("killed");
  }

  private static ProcessInfo withEnd(ProcessInfo i, ProcessEnd end) {
    return new ProcessInfo(
        i.id(),
        i.command(),
        i.running(),
        i.exitCode(),
        Optional.of(end),
        i.signal(),
        i.killedWith(),
        i.startedAt(),
        i.endedAt(),
        i.stdoutBytes(),
        i.stderrBytes());
  }

  private static ProcessInfo info(Map<String, String> f) {
    boolean ended = f.containsKey("exit");
    boolean running = !ended && f.containsKey("alive");
    Optional<ProcessEnd> end =
        ended
            ? Optional.of(reason(f.get("reason")))
            : running ? Optional.empty() : Optional.of(ProcessEnd.LOST);
    return new ProcessInfo(
        f.getOrDefault("id", ""),
        f.getOrDefault("cmd", ""),
        running,
        ended ? OptionalInt.of((int) parseLong(f.get("exit"), -1)) : OptionalInt.empty(),
        end,
        f.containsKey("signal")
            ? OptionalInt.of((int) parseLong(f.get("signal"), 0))
            : OptionalInt.empty(),
        Optional.ofNullable(f.get("killed")),
        instant(f.get("started")),
        instant(f.get("ended")),
        parseLong(f.get("stdout"), 0),
        parseLong(f.get("stderr"), 0));
  }

  private static ProcessEnd reason(String text) {
    if (text == null) {
      return ProcessEnd.LOST;
    }
    return switch (text.strip()) {
      case "exited" -> ProcessEnd.EXITED;
      case "killed" -> ProcessEnd.KILLED;
      case "timed_out" -> ProcessEnd.TIMED_OUT;
      default -> ProcessEnd.LOST;
    };
  }

  private static Optional<Instant> instant(String epochSeconds) {
    long s = parseLong(epochSeconds, -1);
    return s < 0 ? Optional.empty() : Optional.of(Instant.ofEpochSecond(s));
  }

  private static long parseLong(String text, long otherwise) {
    if (text == null) {
      return otherwise;
    }
    try {
      return Long.parseLong(text.strip());
    } catch (NumberFormatException e) {
      return otherwise;
    }
  }

  /** How many OOM kills Incus counted in the instance's memory cgroup (0 when it reports none). */
  private long oomKills(Sandbox sandbox, String instance) {
    return oomKills(reader.in(sandbox).server().metrics(Meta.project(sandbox.name())), instance);
  }

  /** The instance's {@code incus_memory_OOM_kills_total} in OpenMetrics text. */
  static long oomKills(String metrics, String instance) {
    String name = "name=\"" + instance + "\"";
    for (String line : metrics.split("\n")) {
      if (line.startsWith(OOM_METRIC) && line.contains(name)) {
        String value = line.substring(line.lastIndexOf(' ') + 1);
        return (long) Double.parseDouble(value);
      }
    }
    return 0;
  }

  /** Incus runs a command whose working directory is missing in {@code /}: looked up first. */
  private void requireDirectory(Sandbox sandbox, String instance, String cwd) {
    BoundedFileContent entry;
    try {
      entry = reader.in(sandbox).files().read(instance, cwd, 0);
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        throw Errors.of(
            "cwd \"%s\" does not exist on instance \"%s\" in sandbox \"%s\"",
            cwd, instance, sandbox.name());
      }
      throw e;
    }
    if (!"directory".equals(entry.type())) {
      throw Errors.of(
          "cwd \"%s\" is not a directory on instance \"%s\" in sandbox \"%s\"",
          cwd, instance, sandbox.name());
    }
  }
}
