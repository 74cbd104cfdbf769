package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.BackendException.Kind;
import dev.agentcompute.capabilities.model.Cancellation;
import dev.agentcompute.capabilities.model.CommandStream;
import dev.agentcompute.capabilities.model.ComputeLimits;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.ExecRequest;
import dev.agentcompute.capabilities.model.ExecResult;
import dev.agentcompute.capabilities.model.ExecUser;
import dev.agentcompute.capabilities.model.GuestOs;
import dev.agentcompute.capabilities.model.InstanceAction;
import dev.agentcompute.capabilities.model.InstancePlan;
import dev.agentcompute.capabilities.model.Names;
import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.Progress;
import dev.agentcompute.capabilities.model.ResolvedImage;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.platform.InstanceDriver;
import dev.agentcompute.incus.BoundedFileContent;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.incus.PendingOperation;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Instances of a sandbox project: creation (image copied into the project, root disk from the
 * configured pool, one NIC on the logical network), state changes with waits, exec over websockets
 * and bounded file transfers. Throws incus-client's exceptions; the platform translates them.
 */
final class IncusInstanceDriver implements InstanceDriver {
  /**
   * An exec without its own deadline still needs one for the client; the caller's cancellation ends
   * it first.
   */
  private static final Duration NO_EXEC_DEADLINE = Duration.ofDays(1);

  private final IncusClient client;
  private final ComputeConfig config;
  private final SandboxProjects projects;
  private final InstanceReader reader;
  private final NetworkNames names;
  private final ClusterPlacement placement;

  IncusInstanceDriver(
      IncusClient client,
      ComputeConfig config,
      SandboxProjects projects,
      InstanceReader reader,
      NetworkNames names,
      ClusterPlacement placement) {
    this.client = client;
    this.config = config;
    this.projects = projects;
    this.reader = reader;
    this.names = names;
    this.placement = placement;
  }

  @Override
  public List<SandboxInstance> list(Sandbox sandbox) {
    return reader.list(sandbox);
  }

  @Override
  public Optional<SandboxInstance> find(Sandbox sandbox, String name) {
    return reader.find(sandbox, name);
  }

  /** Without the running state Incus asks LXC for (20-50 ms of every exec's path otherwise). */
  @Override
  public Optional<SandboxInstance> findBrief(Sandbox sandbox, String name) {
    return reader.findBrief(sandbox, name);
  }

  /**
   * One all-projects query for every sandbox
   * (docs/reference/capabilities.md#sandboxlist-sandboxget), not one per sandbox.
   */
  @Override
  public Map<String, Integer> count(List<Sandbox> sandboxes) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    Map<String, String> byProject = new HashMap<>();
    for (Sandbox sandbox : sandboxes) {
      counts.put(sandbox.name(), 0);
      byProject.put(Meta.project(sandbox.name()), sandbox.name());
    }
    for (dev.agentcompute.incus.Instance instance : client.instances().listAllProjects()) {
      String sandbox = byProject.get(instance.project());
      if (sandbox != null) {
        counts.merge(sandbox, 1, Integer::sum);
      }
    }
    return counts;
  }

  // ---- creation --------------------------------------------------------------------------------

  private record Pending(
      String sandbox,
      String name,
      IncusClient project,
      PendingOperation operation,
      boolean start,
      Instant deadline)
      implements PendingInstance {}

  /**
   * The service has checked the name under the sandbox's gate (from the sandbox's listing), so the
   * instance is not looked up again here.
   */
  @Override
  public PendingInstance accept(Sandbox sandbox, InstancePlan plan) {
    Instant deadline = Instant.now().plus(ComputeLimits.CREATE_BUDGET);
    // Placement first: a refusal (offline host, no candidate) costs no image copy.
    Optional<String> member = placement.target(sandbox, plan.host());
    String fingerprint = ensureImage(sandbox, plan.source());
    Map<String, Map<String, String>> devices = new LinkedHashMap<>();
    devices.put(
        "root",
        Map.of(
            "type",
            "disk",
            "path",
            "/",
            "pool",
            config.storagePool(),
            "size",
            plan.diskGb() + "GiB"));
    if (!plan.network().equals(Names.NONE)) {
      String physical =
          names
              .physical(sandbox, plan.network())
              .orElseThrow(() -> Errors.networkNotFound(plan.network(), sandbox.name()));
      Map<String, String> nic = new LinkedHashMap<>();
      nic.put("type", "nic");
      nic.put("network", physical);
      nic.put("name", "eth0");
      if (sandbox.networkKind() == NetworkKind.BRIDGE) {
        nic.putAll(NicFiltering.keys(client.networks().get(physical).config(), ""));
      }
      devices.put("eth0", nic);
    }
    Map<String, String> cfg = new LinkedHashMap<>();
    cfg.put("limits.cpu", Integer.toString(plan.cpus()));
    cfg.put("limits.memory", plan.memoryMb() + "MiB");
    if (!plan.kind().equals("vm")) {
      // A fork bomb stops at this many processes, far below the host's pid_max.
      cfg.put("limits.processes", Integer.toString(config.quotas().processes()));
    }
    cfg.put(Meta.IMAGE, plan.image());
    cfg.put(Meta.DESKTOP, Boolean.toString(plan.source().desktop()));
    boolean windows = GuestOs.of(plan.source().os()) == GuestOs.WINDOWS;
    cfg.put("image.os", windows ? "Windows" : plan.source().os());
    if (windows && plan.kind().equals("vm")) {
      // Windows 11 boots only with Secure Boot and a TPM; the agent disk carries the Incus agent's
      // configuration, which exec and the post-start steps go through
      // (docs/reference/capabilities.md#windows-guests).
      cfg.put("security.secureboot", "true");
      devices.put("agent", Map.of("type", "disk", "source", "agent:config"));
      devices.put("tpm", Map.of("type", "tpm"));
    }
    IncusClient project = reader.in(sandbox);
    PendingOperation operation =
        member
            .map(project::onTarget)
            .orElse(project)
            .instances()
            .createAsync(
                new dev.agentcompute.incus.InstanceSpec(
                    plan.name(),
                    plan.kind().equals("vm") ? "virtual-machine" : "container",
                    null,
                    dev.agentcompute.incus.InstanceSpec.Source.imageFingerprint(fingerprint),
                    List.of(),
                    cfg,
                    devices,
                    null,
                    null,
                    null));
    return new Pending(sandbox.name(), plan.name(), project, operation, plan.start(), deadline);
  }

  /**
   * Makes a catalogue image available in the sandbox project: incusd cannot pull from itself over
   * its Unix socket, so the image is exported from the source project and imported unchanged (same
   * fingerprint). Skipped when the project already has it.
   */
  private String ensureImage(Sandbox sandbox, ResolvedImage image) {
    if (!image.fingerprint().isEmpty()) {
      return image.fingerprint();
    }
    IncusClient source = client.inProject(config.imageProject());
    String fingerprint = source.images().alias(image.sourceAlias(), null).target();
    try {
      reader.in(sandbox).images().get(fingerprint);
      return fingerprint;
    } catch (IncusException e) {
      if (!IncusFailures.isNotFound(e)) {
        throw e;
      }
    }
    source.images().copyToProject(fingerprint, Meta.project(sandbox.name()));
    return fingerprint;
  }

  /**
   * Waits for the creation, starts the instance if asked, and reads it. The read after a start
   * usually shows it running already (the start operation ends when it runs); only otherwise is its
   * state polled until it runs, then it is read again.
   */
  @Override
  public SandboxInstance finish(PendingInstance handle) {
    Pending pending = (Pending) handle;
    dev.agentcompute.incus.Instances instances = pending.project().instances();
    timedOut(
        pending,
        () -> {
          pending.operation().await(remaining(pending.deadline()));
          if (pending.start()) {
            Progress.stage("instance " + pending.name() + " created, starting it");
            // Created without "start", so it is stopped: no state read before the start.
            instances
                .changeState(pending.name(), "start", -1, false)
                .await(remaining(pending.deadline()));
          }
        });
    SandboxInstance made = read(pending);
    if (!pending.start() || isRunning(made.status())) {
      return made;
    }
    timedOut(
        pending, () -> awaitStatus(pending.project(), pending.name(), true, pending.deadline()));
    return read(pending);
  }

  /** The sandbox is read again: one deleted meanwhile is "not found", not a missing instance. */
  private SandboxInstance read(Pending pending) {
    Sandbox sandbox =
        projects
            .get(pending.sandbox())
            .flatMap(projects::parse)
            .orElseThrow(() -> Errors.sandboxNotFound(pending.sandbox()));
    return reader.require(sandbox, pending.name());
  }

  /** Runs a step of the creation; past its deadline a failure becomes the timeout text. */
  private static void timedOut(Pending pending, Runnable step) {
    try {
      step.run();
    } catch (IncusException | BackendException e) {
      if (!(e instanceof IncusException.Cancelled) && Instant.now().isAfter(pending.deadline())) {
        throw Errors.of(
            "instance \"%s\" creation timed out in sandbox \"%s\"; inspect it before retrying",
            pending.name(), pending.sandbox());
      }
      throw e;
    }
  }

  private static Duration remaining(Instant deadline) {
    Duration left = Duration.between(Instant.now(), deadline);
    return left.isNegative() || left.isZero() ? Duration.ofMillis(1) : left;
  }

  // ---- state -----------------------------------------------------------------------------------

  static String status(dev.agentcompute.incus.Instance.State state) {
    return state == null || state.status() == null ? "" : state.status();
  }

  private static boolean isRunning(String status) {
    return status.equals("Running") || status.equals("Ready");
  }

  /** Polls until running (or stopped); an instance in {@code Error} ends the wait. */
  static void awaitStatus(IncusClient project, String name, boolean running, Instant deadline) {
    dev.agentcompute.incus.Instances instances = project.instances();
    while (true) {
      String status = status(instances.state(name));
      if (running ? isRunning(status) : status.equals("Stopped")) {
        return;
      }
      if (status.equals("Error")) {
        throw Errors.of("instance entered error state");
      }
      if (Instant.now().isAfter(deadline)) {
        throw new BackendException(
            Kind.FAILED, "instance " + name + " did not reach the requested state");
      }
      Cancellation.sleep(ComputeLimits.STATE_POLL);
    }
  }

  @Override
  public void delete(Sandbox sandbox, String name) {
    reader.require(sandbox, name);
    forceDelete(reader.in(sandbox), name);
  }

  /**
   * Stops (forcefully) and deletes an instance with its snapshots; a missing instance is fine. A
   * stop that fails once the instance is down (its stop hook writes into the root disk, which on a
   * copy-on-write pool may be full: "disk quota exceeded") does not keep the instance alive.
   */
  static void forceDelete(IncusClient project, String name) {
    IncusFailures.ignoreNotFound(
        () -> {
          if (!status(project.instances().state(name)).equals("Stopped")) {
            try {
              project.instances().changeState(name, "stop", -1, true).await();
            } catch (IncusException e) {
              if (IncusFailures.isNotFound(e)
                  || !status(project.instances().state(name)).equals("Stopped")) {
                throw e;
              }
            }
          }
          project.instances().delete(name);
        });
  }

  @Override
  public String changeState(Sandbox sandbox, String name, InstanceAction action, boolean force) {
    reader.require(sandbox, name);
    IncusClient project = reader.in(sandbox);
    dev.agentcompute.incus.Instances instances = project.instances();
    String status = status(instances.state(name));
    boolean satisfied =
        switch (action) {
          case STOP -> status.equals("Stopped");
          case START -> isRunning(status);
          case RESTART -> false;
        };
    if (!satisfied) {
      InstanceAction effective =
          action == InstanceAction.RESTART && status.equals("Stopped")
              ? InstanceAction.START
              : action;
      // A start writes the instance's backup file into its root disk: a full one refuses it.
      IncusFailures.writing(
          project,
          name,
          () ->
              instances
                  .changeState(name, effective.wireName(), -1, force)
                  .await(ComputeLimits.STATE_CHANGE_BUDGET));
      awaitStatus(
          project,
          name,
          action.leavesRunning(),
          Instant.now().plus(ComputeLimits.STATE_CHANGE_BUDGET));
    }
    return status(instances.state(name));
  }

  // ---- exec and files --------------------------------------------------------------------------

  /**
   * Runs a command over Incus exec websockets (incus-client): stdin is sent then closed, each
   * stream keeps its first 64 KiB while the rest is drained, and at the exec deadline the command
   * is killed with signal 9 and reported as {@code timed_out} (exit code -1). Without an exec
   * deadline the call is bounded only by the caller (a cancelled caller's interrupt kills the
   * command too).
   */
  @Override
  public ExecResult exec(Sandbox sandbox, String name, ExecRequest request) {
    request.cwd().ifPresent(cwd -> requireDirectory(sandbox, name, cwd));
    dev.agentcompute.incus.ExecResult result;
    try {
      result =
          execReportingOutput(
              reader.in(sandbox),
              name,
              request.progress(),
              incusRequest(
                  request,
                  request.stdin().orElse("").getBytes(StandardCharsets.UTF_8),
                  request.timeout().orElse(NO_EXEC_DEADLINE)));
    } catch (IncusException e) {
      throw execFailure(sandbox, name, e);
    }
    boolean timedOut = result.timedOut() && request.timeout().isPresent();
    return new ExecResult(
        timedOut ? ExecResult.TIMED_OUT_EXIT_CODE : result.exitCode(),
        result.stdoutText(),
        result.stderrText(),
        result.stdoutTruncated(),
        result.stderrTruncated(),
        timedOut);
  }

  /**
   * Runs the exec, with its new output lines reported as progress once it runs long when the
   * request asks for it (instance.exec's foreground path only).
   */
  private static dev.agentcompute.incus.ExecResult execReportingOutput(
      IncusClient project,
      String name,
      boolean reportProgress,
      dev.agentcompute.incus.ExecRequest call) {
    Optional<ExecProgress> progress = reportProgress ? ExecProgress.start() : Optional.empty();
    if (progress.isEmpty()) {
      return project.instances().exec(name, call);
    }
    try (ExecProgress p = progress.get()) {
      return project.instances().exec(name, call, p);
    }
  }

  /**
   * The Incus exec of {@code request} (incus-client's wire record, nullable where the REST body
   * omits a key): no cwd is the instance's default, no user its own.
   */
  private static dev.agentcompute.incus.ExecRequest incusRequest(
      ExecRequest request, byte[] stdin, Duration deadline) {
    OptionalInt uid = ExecUser.parse(request.user());
    return new dev.agentcompute.incus.ExecRequest(
        request.argv(),
        request.env(),
        request.cwd().orElse(null),
        uid.isPresent() ? uid.getAsInt() : null,
        stdin,
        deadline);
  }

  private static RuntimeException execFailure(Sandbox sandbox, String name, IncusException e) {
    return switch (e) {
      case IncusException.Cancelled c -> Cancellation.canceled(c);
      case IncusException.NotFound n -> Errors.instanceNotFound(name, sandbox.name());
      default ->
          new BackendException(
              e instanceof IncusException.Unavailable ? Kind.UNAVAILABLE : Kind.FAILED,
              "exec in " + name + ": " + e.getMessage(),
              e);
    };
  }

  /**
   * The command over attached exec websockets (incus-client's {@code openExec}); it lives until
   * closed, the instance stops, or a day has passed.
   */
  @Override
  public CommandStream openStream(Sandbox sandbox, String name, ExecRequest request) {
    dev.agentcompute.incus.ExecRequest call = incusRequest(request, new byte[0], NO_EXEC_DEADLINE);
    try {
      return new IncusCommandStream(reader.in(sandbox).instances().openExec(name, call));
    } catch (IncusException e) {
      throw execFailure(sandbox, name, e);
    }
  }

  @Override
  public Optional<byte[]> readFileIfPresent(Sandbox sandbox, String name, String path, int limit) {
    BoundedFileContent file;
    try {
      file = reader.in(sandbox).files().read(name, path, limit + 1L);
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        return Optional.empty();
      }
      throw e;
    }
    if (!file.isRegularFile()) {
      throw Errors.of(
          "path is not a regular file on instance \"%s\" in sandbox \"%s\"", name, sandbox.name());
    }
    return Optional.of(file.content());
  }

  @Override
  public void deleteFile(Sandbox sandbox, String name, String path) {
    IncusFailures.ignoreNotFound(() -> reader.in(sandbox).files().delete(name, path));
  }

  /**
   * At most {@code limit + 1} bytes of a file (one more than allowed, so the caller can tell a file
   * over the limit); the rest is never transferred.
   */
  @Override
  public byte[] readFile(Sandbox sandbox, String name, String path, int limit) {
    BoundedFileContent file;
    try {
      file = reader.in(sandbox).files().read(name, path, limit + 1L);
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        throw Errors.of(
            "file not found on instance \"%s\" in sandbox \"%s\"", name, sandbox.name());
      }
      throw e;
    }
    if (!file.isRegularFile()) {
      throw Errors.of(
          "path is not a regular file on instance \"%s\" in sandbox \"%s\"", name, sandbox.name());
    }
    return file.content();
  }

  @Override
  public void writeFile(Sandbox sandbox, String name, String path, byte[] content, Integer mode) {
    try {
      IncusClient project = reader.in(sandbox);
      IncusFailures.writing(project, name, () -> project.files().write(name, path, content, mode));
    } catch (IncusException e) {
      // The instance exists (the service looked): a 404 means the file's directory does not.
      if (IncusFailures.isNotFound(e)) {
        throw Errors.of(
            "parent directory of \"%s\" does not exist on instance \"%s\" in sandbox \"%s\"",
            path, name, sandbox.name());
      }
      throw e;
    }
  }

  /**
   * Incus runs a command whose working directory is missing in {@code /} instead of failing, so the
   * directory is looked up first. (Windows drive paths are left to the guest.)
   */
  private void requireDirectory(Sandbox sandbox, String name, String cwd) {
    if (!cwd.startsWith("/")) {
      return;
    }
    BoundedFileContent entry;
    try {
      entry = reader.in(sandbox).files().read(name, cwd, 0);
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        throw Errors.of(
            "cwd \"%s\" does not exist on instance \"%s\" in sandbox \"%s\"",
            cwd, name, sandbox.name());
      }
      throw e;
    }
    if (!"directory".equals(entry.type())) {
      throw Errors.of(
          "cwd \"%s\" is not a directory on instance \"%s\" in sandbox \"%s\"",
          cwd, name, sandbox.name());
    }
  }
}
