package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.config.ProcessLimits;
import dev.agentcompute.capabilities.model.Cancellation;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.ExecRequest;
import dev.agentcompute.capabilities.model.ExecUser;
import dev.agentcompute.capabilities.model.Names;
import dev.agentcompute.capabilities.model.ProcessInfo;
import dev.agentcompute.capabilities.model.ProcessStart;
import dev.agentcompute.capabilities.model.Progress;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.platform.ProcessDriver;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Background processes (docs/capabilities.md#background-processes): {@code instance.exec(...,
 * background=True)} and {@code instance.process.*}. The rules live here (which instances may run
 * them, the limits, offsets, waits, signals); the platform's {@link ProcessDriver} keeps the
 * processes in the instance. Like exec, no sandbox gate is taken and expiry is not checked.
 */
public final class ProcessService {
  /** Default and largest bytes of each stream one {@code instance.process.output} returns. */
  public static final int OUTPUT_DEFAULT_BYTES = 16_384;

  public static final int OUTPUT_MAX_BYTES = 32_768;

  /** Default and longest {@code instance.process.wait}: the execute limit. */
  public static final long WAIT_DEFAULT_SECONDS = 30;

  public static final long WAIT_MAX_SECONDS = 900;

  /** How often a wait asks the supervisor, and how often it reports that it still waits. */
  static final Duration WAIT_POLL = Duration.ofMillis(500);

  static final long PROGRESS_EVERY_SECONDS = 10;

  /** The signals instance.process.kill sends. */
  public static final Set<String> SIGNALS =
      Set.of("TERM", "KILL", "INT", "HUP", "QUIT", "USR1", "USR2", "STOP", "CONT");

  /** Ids this service makes: {@code p}, the start time and a random part, all base 36. */
  private static final Pattern ID = Pattern.compile("p[0-9a-z]{8,24}");

  private final SandboxAccess access;
  private final InstanceService instances;
  private final Supplier<ProcessLimits> limits;

  ProcessService(SandboxAccess access, InstanceService instances, Supplier<ProcessLimits> limits) {
    this.access = access;
    this.instances = instances;
    this.limits = limits;
  }

  /** The instance a process call is about, its platform's driver, and the platform's refusal. */
  private record Target(Sandbox sandbox, SandboxInstance instance, ProcessDriver driver) {
    String name() {
      return instance.name();
    }
  }

  private Target target(String sandboxName, String name, String capability) {
    Sandbox sandbox = access.require(sandboxName);
    Names.require(name);
    ProcessDriver driver =
        access
            .router()
            .of(sandbox)
            .processes()
            .orElseThrow(
                () ->
                    Errors.of(
                        "%s is unsupported on platform %s: background processes run in Linux"
                            + " containers on Incus only; run the command in the foreground with"
                            + " instance.exec(timeout_seconds=...)",
                        capability, sandbox.platform()));
    SandboxInstance instance = instances.require(sandbox, name);
    if (!instance.kind().equals("container")) {
      throw Errors.of(
          "%s is unsupported on instance \"%s\": it is a %s, and background processes run in"
              + " Linux containers only; run the command in the foreground with"
              + " instance.exec(timeout_seconds=...)",
          capability, name, instance.kind());
    }
    return new Target(sandbox, instance, driver);
  }

  /**
   * Starts {@code request}'s shell line under the supervisor and returns its id at once: the same
   * request record a foreground instance.exec carries (docs/reference/exec-path.md).
   */
  public String start(String sandboxName, String name, ExecRequest request) {
    Target t = target(sandboxName, name, "instance.exec with background=True");
    if (request.stdin().filter(stdin -> !stdin.isEmpty()).isPresent()) {
      throw Errors.of(
          "a background process reads no stdin; write the input to a file with"
              + " instance.file.write and redirect it (command < file)");
    }
    if (request.cwd().filter(cwd -> !cwd.startsWith("/")).isPresent()) {
      throw Errors.of("cwd must be an absolute path");
    }
    if (!t.instance().isRunning()) {
      throw Errors.instanceNotRunning(name, sandboxName);
    }
    OptionalInt uid = ExecUser.parse(request.user());
    // instance.exec sends a shell line (sh -c LINE); the supervisor runs it with sh -c itself.
    String command = request.shellLine().orElseGet(() -> String.join(" ", request.argv()));
    ProcessLimits l = limits.get();
    String id = newId();
    OptionalInt refused =
        t.driver()
            .start(
                t.sandbox(),
                name,
                new ProcessStart(
                    id,
                    command,
                    request.env(),
                    uid,
                    request.cwd(),
                    request.timeout(),
                    l.perInstance(),
                    l.outputBytes()));
    if (refused.isPresent()) {
      QuotaRefusals.refused("instance.background_processes");
      throw Errors.of(
          "instance \"%s\" in sandbox \"%s\" already runs %d background processes, the most"
              + " instance.background_processes = %d allows; wait for one or end it with"
              + " instance.process.kill first",
          name, sandboxName, refused.getAsInt(), l.perInstance());
    }
    return id;
  }

  private String newId() {
    long millis = access.now().toEpochMilli();
    String random = Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36), 36);
    return "p" + Long.toString(millis, 36) + "0".repeat(4 - random.length()) + random;
  }

  public List<ProcessInfo> list(String sandboxName, String name) {
    Target t = target(sandboxName, name, "instance.process.list");
    return t.driver().list(t.sandbox(), name);
  }

  public ProcessInfo get(String sandboxName, String name, String process) {
    Target t = target(sandboxName, name, "instance.process.get");
    return require(t, process);
  }

  private ProcessInfo require(Target t, String process) {
    requireId(process);
    return t.driver().find(t.sandbox(), t.name(), process).orElseThrow(() -> notFound(t, process));
  }

  private static void requireId(String process) {
    if (process == null || !ID.matcher(process).matches()) {
      throw Errors.of(
          "process \"%s\" is not a process id; instance.exec(background=True) and"
              + " instance.process.list give them",
          process);
    }
  }

  private static RuntimeException notFound(Target t, String process) {
    return Errors.of(
        "process \"%s\" not found on instance \"%s\" in sandbox \"%s\" (a restart of the"
            + " instance ends its processes); instance.process.list shows the ones it has",
        process, t.name(), t.sandbox().name());
  }

  /** Output of both streams from their offsets, cut back to whole UTF-8 characters. */
  public record Output(
      ProcessInfo process, String stdout, String stderr, long stdoutNext, long stderrNext) {}

  public Output output(
      String sandboxName,
      String name,
      String process,
      long stdoutOffset,
      long stderrOffset,
      long maxBytes) {
    Target t = target(sandboxName, name, "instance.process.output");
    if (maxBytes < 0 || maxBytes > OUTPUT_MAX_BYTES) {
      throw Errors.of(
          "max_bytes must be between 1 and %d (0 means %d)",
          OUTPUT_MAX_BYTES, OUTPUT_DEFAULT_BYTES);
    }
    int max = maxBytes == 0 ? OUTPUT_DEFAULT_BYTES : (int) maxBytes;
    ProcessInfo info = require(t, process);
    offset("stdout_offset", stdoutOffset, info.stdoutBytes());
    offset("stderr_offset", stderrOffset, info.stderrBytes());
    ProcessDriver.Chunk chunk =
        t.driver()
            .read(t.sandbox(), name, process, stdoutOffset, stderrOffset, max)
            .orElseThrow(() -> notFound(t, process));
    byte[] out = wholeCharacters(chunk.stdout());
    byte[] err = wholeCharacters(chunk.stderr());
    return new Output(
        info,
        new String(out, StandardCharsets.UTF_8),
        new String(err, StandardCharsets.UTF_8),
        stdoutOffset + out.length,
        stderrOffset + err.length);
  }

  private static void offset(String argument, long offset, long size) {
    if (offset < 0 || offset > size) {
      throw Errors.of(
          "%s %d is outside the output kept so far (0 to %d bytes)", argument, offset, size);
    }
  }

  /**
   * The bytes up to the last whole UTF-8 character: a character cut by the byte limit (or still
   * being written) is left for the next call, so no call returns half of one.
   */
  static byte[] wholeCharacters(byte[] bytes) {
    int end = bytes.length;
    int back = 0;
    int i = end - 1;
    while (i >= 0 && back < 4 && (bytes[i] & 0xC0) == 0x80) {
      i--;
      back++;
    }
    if (i < 0 || (bytes[i] & 0x80) == 0) {
      return bytes;
    }
    int lead = bytes[i] & 0xFF;
    int length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    if (back + 1 >= length || i == 0) {
      return bytes;
    }
    return java.util.Arrays.copyOf(bytes, i);
  }

  /** Waits until the process ends or {@code timeout} passes; either way answers its state. */
  public ProcessInfo waitFor(String sandboxName, String name, String process, long timeoutSeconds) {
    Target t = target(sandboxName, name, "instance.process.wait");
    if (timeoutSeconds < 0 || timeoutSeconds > WAIT_MAX_SECONDS) {
      throw Errors.of(
          "timeout_seconds must be between 1 and %d (0 means %d)",
          WAIT_MAX_SECONDS, WAIT_DEFAULT_SECONDS);
    }
    Duration timeout =
        Duration.ofSeconds(timeoutSeconds == 0 ? WAIT_DEFAULT_SECONDS : timeoutSeconds);
    Instant started = access.now();
    Progress.stage("waiting for process " + process + " on instance " + name + " to end");
    long reported = 0;
    while (true) {
      ProcessInfo info = require(t, process);
      Duration elapsed = Duration.between(started, access.now());
      if (!info.running() || elapsed.compareTo(timeout) >= 0) {
        return info;
      }
      if (elapsed.toSeconds() / PROGRESS_EVERY_SECONDS > reported) {
        reported = elapsed.toSeconds() / PROGRESS_EVERY_SECONDS;
        Progress.stage("still waiting for process " + process + ", " + elapsed.toSeconds() + " s");
      }
      Cancellation.sleep(WAIT_POLL);
    }
  }

  /** Sends {@code signal} to the process's process group; answers its state right after. */
  public ProcessInfo kill(String sandboxName, String name, String process, String signal) {
    Target t = target(sandboxName, name, "instance.process.kill");
    requireId(process);
    String sig =
        signal == null || signal.isEmpty() ? "TERM" : signal.toUpperCase(java.util.Locale.ROOT);
    if (sig.startsWith("SIG")) {
      sig = sig.substring(3);
    }
    if (!SIGNALS.contains(sig)) {
      throw Errors.of(
          "signal \"%s\" is not one of %s",
          signal, String.join(", ", SIGNALS.stream().sorted().toList()));
    }
    switch (t.driver().signal(t.sandbox(), name, process, sig)) {
      case NOT_FOUND -> throw notFound(t, process);
      case ALREADY_ENDED ->
          throw Errors.of(
              "process \"%s\" on instance \"%s\" already ended; instance.process.get tells how",
              process, name);
      case SENT -> {}
    }
    return require(t, process);
  }
}
