package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.model.Cancellation;
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
import dev.agentcompute.capabilities.model.WaitStage;
import dev.agentcompute.capabilities.model.WindowsExec;
import dev.agentcompute.capabilities.platform.InstanceDriver;
import dev.agentcompute.capabilities.platform.PlatformFeature;
import dev.agentcompute.capabilities.platform.PlatformRouter;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * instance.* lifecycle, waits, exec and files (docs/reference/capabilities.md#instances,
 * #lifecycle, #files). Creation is accepted under the sandbox's gate and finished outside it; exec,
 * files and waits take no gate and do not check the sandbox's expiry
 * (docs/reference/capabilities.md#instanceexec, #files).
 */
public final class InstanceService {
  private final SandboxAccess access;
  private final PlatformRouter router;
  private final ImageService images;
  private final DesktopDriver desktop;
  private final WindowsDriver windowsDesktop;
  private final WindowsGuest windows;
  private final QuotaChecks quotas;
  private final IdentityQuotas identityQuotas;

  InstanceService(
      SandboxAccess access, ImageService images, WindowsDriver windowsDesktop, QuotaChecks quotas) {
    this.access = access;
    this.quotas = quotas;
    this.identityQuotas = new IdentityQuotas(access, quotas);
    this.router = access.router();
    this.images = images;
    this.desktop = new DesktopDriver(access.router());
    this.windowsDesktop = windowsDesktop;
    this.windows = new WindowsGuest(access.router());
  }

  /** Optional instance.create arguments; null means "use the image default". */
  public record CreateOptions(
      String kind,
      Long cpus,
      Long memoryMb,
      Long diskGb,
      String network,
      String host,
      Boolean start) {}

  /** A resource argument within its bounds, or the text naming it and them. */
  private static int within(String argument, Long value, long min, long max, int imageDefault) {
    if (value == null) {
      return imageDefault;
    }
    if (value < min || value > max) {
      throw Errors.of("%s must be between %d and %d", argument, min, max);
    }
    return value.intValue();
  }

  /**
   * Incus records a new instance inside its create operation, a moment after accepting it (a Mac
   * guest is in its sidecar once accepted): the identity's reservation is held until the instance
   * is listed (or {@link #LISTED_WAIT} passed), so the next creation of the same owner counts it.
   */
  private static void awaitListed(InstanceDriver driver, Sandbox sandbox, String name) {
    long deadline = System.nanoTime() + LISTED_WAIT.toNanos();
    while (driver.find(sandbox, name).isEmpty() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(LISTED_POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static final Duration LISTED_WAIT = Duration.ofSeconds(10);

  /**
   * Between two looks for the new instance: Incus lists it some 20 to 60 ms after accepting it, and
   * the agent's call waits for this loop before it waits for the creation itself.
   */
  private static final Duration LISTED_POLL = Duration.ofMillis(20);

  public SandboxInstance create(
      String sandboxName, String name, String image, CreateOptions options) {
    Instant started = access.now();
    ResolvedImage resolved = images.resolve(sandboxName, image);
    Names.require(sandboxName);
    Names.require(name);
    if (!PlatformRouter.KNOWN_PLATFORMS.contains(resolved.platform())) {
      throw Errors.of(
          "image \"%s\" is not available on platform \"%s\"", image, resolved.platform());
    }
    String kind =
        options.kind() == null || options.kind().isEmpty() ? resolved.kind() : options.kind();
    int cpus = within("cpus", options.cpus(), 1, ComputeLimits.CPUS_MAX, resolved.cpus());
    int memoryMb =
        within(
            "memory_mb",
            options.memoryMb(),
            ComputeLimits.MEMORY_MB_MIN,
            ComputeLimits.MEMORY_MB_MAX,
            resolved.memoryMb());
    int diskGb =
        within("disk_gb", options.diskGb(), 1, ComputeLimits.DISK_GB_MAX, resolved.diskGb());
    quotas.instanceSize(cpus, memoryMb, diskGb);
    InstancePlan plan =
        new InstancePlan(
            name,
            image,
            resolved,
            kind,
            cpus,
            memoryMb,
            diskGb,
            options.network() == null || options.network().isEmpty()
                ? Names.DEFAULT
                : options.network(),
            options.host() == null ? "" : options.host(),
            options.start() == null || options.start());
    InstanceDriver.PendingInstance pending =
        access.live(
            sandboxName,
            sandbox -> {
              if (!sandbox.platform().equals(resolved.platform())) {
                throw Errors.of(
                    "image \"%s\" is not available on platform \"%s\"", image, sandbox.platform());
              }
              if (sandbox.networkKind() == NetworkKind.BRIDGE
                  && !plan.host().isEmpty()
                  && !plan.host().equalsIgnoreCase(sandbox.member())) {
                throw Errors.of(
                    "host \"%s\" is not sandbox member \"%s\"", plan.host(), sandbox.member());
              }
              if (!kind.equals("container") && !kind.equals("vm")) {
                throw Errors.of("kind \"%s\" is not available yet", kind);
              }
              if (!resolved.kinds().contains(kind)) {
                throw Errors.of("kind \"%s\" is not supported for image \"%s\"", kind, image);
              }
              if (router.supports(sandbox, PlatformFeature.PROJECT_PROCESS_LIMITS)) {
                quotas.kindUnderProjectLimits(kind);
              }
              if (!plan.network().equals(Names.NONE)) {
                Names.requireNetworkRef(plan.network());
              }
              InstanceDriver driver = router.instances(sandbox);
              // One listing serves both the name check and the room check.
              List<SandboxInstance> existing = driver.list(sandbox);
              if (existing.stream().anyMatch(i -> i.name().equals(name))) {
                throw Errors.instanceExists(name, sandboxName);
              }
              // Inside the sandbox's gate: two creations cannot both take the last room.
              quotas.sandboxRoom(sandboxName, existing, cpus, memoryMb);
              return identityQuotas.withInstanceRoom(
                  sandbox,
                  () -> {
                    InstanceDriver.PendingInstance accepted = driver.accept(sandbox, plan);
                    if (router.supports(sandbox, PlatformFeature.LISTED_AFTER_ACCEPT)) {
                      awaitListed(driver, sandbox, name);
                    }
                    return accepted;
                  });
            });
    Sandbox sandbox = access.require(sandboxName);
    Progress.stage(
        plan.start()
            ? "instance " + name + " created, waiting for it to run"
            : "instance " + name + " being created");
    SandboxInstance created = router.instances(sandbox).finish(pending);
    if (!resolved.desktop() || !plan.start()) {
      return created;
    }
    // Desktop images are ready when their Driver answers, within the same creation budget.
    Duration left = ComputeLimits.CREATE_BUDGET.minus(Duration.between(started, access.now()));
    if (poll(
            sandbox, name, WaitStage.DESKTOP, Optional.of(left.isNegative() ? Duration.ZERO : left))
        .isEmpty()) {
      throw Errors.of(
          "instance \"%s\" creation timed out in sandbox \"%s\"; inspect it before retrying",
          name, sandboxName);
    }
    return require(access.require(sandboxName), name);
  }

  public List<SandboxInstance> list(String sandboxName) {
    Sandbox sandbox = access.require(sandboxName);
    return router.instances(sandbox).list(sandbox);
  }

  public SandboxInstance get(String sandboxName, String name) {
    Sandbox sandbox = access.require(sandboxName);
    Names.require(name);
    return require(sandbox, name);
  }

  /** The instance of a sandbox already looked up, or {@code instance "<n>" not found ...}. */
  SandboxInstance require(Sandbox sandbox, String name) {
    return router
        .instances(sandbox)
        .find(sandbox, name)
        .orElseThrow(() -> Errors.instanceNotFound(name, sandbox.name()));
  }

  /** {@link #require} without the running state's query: whether it runs, its image, its OS. */
  SandboxInstance requireBrief(Sandbox sandbox, String name) {
    return router
        .instances(sandbox)
        .findBrief(sandbox, name)
        .orElseThrow(() -> Errors.instanceNotFound(name, sandbox.name()));
  }

  /**
   * Under the gate, with no expiry check
   * (docs/reference/capabilities.md#instancelist-instanceget-instancedelete).
   */
  public void delete(String sandboxName, String name) {
    Names.require(sandboxName, name);
    access.existing(
        sandboxName,
        sandbox -> {
          require(sandbox, name);
          router.instances(sandbox).delete(sandbox, name);
          return null;
        });
  }

  public String changeState(String sandboxName, String name, InstanceAction action, boolean force) {
    Names.require(sandboxName, name);
    String status =
        access.live(
            sandboxName,
            sandbox -> {
              require(sandbox, name);
              return router.instances(sandbox).changeState(sandbox, name, action, force);
            });
    if (!action.leavesRunning()) {
      return status;
    }
    Sandbox sandbox = access.require(sandboxName);
    SandboxInstance instance = require(sandbox, name);
    if (GuestOs.of(images.osOf(instance)) != GuestOs.WINDOWS) {
      return status;
    }
    // Outside the gate: the agent may take minutes to answer after a boot.
    waitFor(sandboxName, name, WaitStage.AGENT, Optional.of(WindowsGuest.AGENT_BUDGET));
    windows.prepare(sandbox, require(sandbox, name));
    return require(sandbox, name).status();
  }

  /** How often a long wait says it is still waiting. */
  static final long PROGRESS_EVERY_SECONDS = 10;

  /** Outcome of {@link #waitFor}. */
  public record Waited(String status, long elapsedSeconds) {}

  /**
   * Polls until the stage is reached; an empty {@code timeout} waits as long as the caller does.
   */
  public Waited waitFor(
      String sandboxName, String name, WaitStage until, Optional<Duration> timeout) {
    Sandbox sandbox = access.require(sandboxName);
    Names.require(name);
    return poll(sandbox, name, until, timeout)
        .orElseThrow(
            () ->
                Errors.of(
                    "instance \"%s\" in sandbox \"%s\" did not become %s",
                    name, sandboxName, until.wireName()));
  }

  /** {@link #waitFor}'s polling; empty when {@code timeout} ran out first. */
  private Optional<Waited> poll(
      Sandbox sandbox, String name, WaitStage until, Optional<Duration> timeout) {
    Instant started = access.now();
    Progress.stage("waiting for instance " + name + " to be " + until.wireName());
    long reported = 0;
    while (true) {
      SandboxInstance instance = require(sandbox, name);
      boolean reached =
          switch (until) {
            case RUNNING, AGENT -> instance.isRunning();
            case NETWORK ->
                instance.isRunning()
                    && instance.addresses().values().stream().anyMatch(list -> !list.isEmpty());
            case DESKTOP -> instance.isRunning() && desktopAnswers(sandbox, instance);
            case STOPPED -> instance.status().equals("Stopped");
          };
      long elapsed = Duration.between(started, access.now()).toSeconds();
      if (reached) {
        return Optional.of(new Waited(instance.status(), elapsed));
      }
      if (elapsed / PROGRESS_EVERY_SECONDS > reported) {
        reported = elapsed / PROGRESS_EVERY_SECONDS;
        Progress.stage(
            "still waiting for instance "
                + name
                + " to be "
                + until.wireName()
                + ", "
                + elapsed
                + " s");
      }
      if (instance.status().equals("Error") && instance.kind().equals("container")) {
        throw Errors.of("instance entered error state");
      }
      if (timeout.isPresent()
          && Duration.between(started, access.now()).compareTo(timeout.get()) >= 0) {
        return Optional.empty();
      }
      Cancellation.sleep(until == WaitStage.DESKTOP ? DESKTOP_POLL : ComputeLimits.STATE_POLL);
    }
  }

  /** How often the desktop stage asks the Driver (docs/reference/capabilities.md#instancewait). */
  static final Duration DESKTOP_POLL = Duration.ofMillis(500);

  private boolean desktopAnswers(Sandbox sandbox, SandboxInstance instance) {
    GuestOs os = GuestOs.of(images.osOf(instance));
    if (os == GuestOs.WINDOWS) {
      return windowsDesktop.ready(sandbox, instance);
    }
    return desktop.status(sandbox, instance, os);
  }

  /**
   * instance.exec (docs/reference/exec-path.md): the sandbox and the instance are read once and
   * {@code request} goes to the driver unchanged, except on Windows guests, where a shell request
   * becomes the PowerShell wrapper of docs/reference/capabilities.md#windows-guests and a {@code
   * user} is refused (the command runs as the Incus agent service).
   */
  public ExecResult exec(String sandboxName, String name, ExecRequest request) {
    Sandbox sandbox = access.require(sandboxName);
    Names.require(name);
    SandboxInstance instance = requireBrief(sandbox, name);
    ExecRequest checked = request;
    if (GuestOs.of(images.osOf(instance)) == GuestOs.WINDOWS) {
      if (request.user().filter(user -> !user.isEmpty()).isPresent()) {
        throw Errors.of("Windows exec uses the Incus agent service identity; user is unsupported");
      }
      checked =
          request
              .withUser(Optional.empty())
              .withArgv(request.shellLine().map(WindowsExec::command).orElse(request.argv()));
    } else if (router.supports(sandbox, PlatformFeature.GUEST_LOGIN_USER)) {
      ExecUser.parseMac(request.user());
    } else {
      ExecUser.parse(request.user());
    }
    if (checked.cwd().filter(cwd -> !isAbsolute(cwd)).isPresent()) {
      throw Errors.of("cwd must be an absolute path");
    }
    if (!instance.isRunning()) {
      throw Errors.instanceNotRunning(name, sandboxName);
    }
    return router.instances(sandbox).exec(sandbox, name, checked);
  }

  /** {@code /…} or a Windows drive path, without NUL. */
  public static boolean isAbsolute(String path) {
    if (path.indexOf('\0') >= 0) {
      return false;
    }
    return path.startsWith("/") || path.matches("[A-Za-z]:[\\\\/].*");
  }

  /** Text-sized file read result. */
  public record FileRead(byte[] content, boolean truncated) {}

  public FileRead readFile(String sandboxName, String name, String path, long maxBytes) {
    Sandbox sandbox = access.require(sandboxName);
    Names.require(name);
    if (!isAbsolute(path)) {
      throw Errors.of("path must be an absolute path");
    }
    if (maxBytes < 0) {
      throw Errors.of("max_bytes must be non-negative");
    }
    int limit =
        maxBytes <= 0
            ? ComputeLimits.FILE_READ_DEFAULT_BYTES
            : (int) Math.min(maxBytes, ComputeLimits.FILE_READ_MAX_BYTES);
    require(sandbox, name);
    byte[] bytes = router.instances(sandbox).readFile(sandbox, name, path, limit);
    return bytes.length > limit
        ? new FileRead(Arrays.copyOf(bytes, limit), true)
        : new FileRead(bytes, false);
  }

  public int writeFile(String sandboxName, String name, String path, byte[] content, String mode) {
    Sandbox sandbox = access.require(sandboxName);
    Names.require(name);
    if (!isAbsolute(path)) {
      throw Errors.of("path must be an absolute path");
    }
    if (content.length > ComputeLimits.FILE_WRITE_MAX_BYTES) {
      throw Errors.of(
          "file content exceeds %d bytes (instance.file.write's limit); move a larger file with"
              + " instance.file.upload_url",
          ComputeLimits.FILE_WRITE_MAX_BYTES);
    }
    Integer parsedMode = mode == null || mode.isEmpty() ? null : parseMode(mode);
    require(sandbox, name);
    router.instances(sandbox).writeFile(sandbox, name, path, content, parsedMode);
    return content.length;
  }

  static int parseMode(String mode) {
    try {
      long value = Long.parseLong(mode, 8);
      if (value < 0) {
        throw new NumberFormatException();
      }
      if (value > ComputeLimits.FILE_MODE_MAX) {
        throw Errors.of(
            "mode \"%s\" is out of range: a file mode is at most %o (permissions with setuid,"
                + " setgid and sticky)",
            mode, ComputeLimits.FILE_MODE_MAX);
      }
      return (int) value;
    } catch (NumberFormatException e) {
      throw Errors.of("mode \"%s\" is not an octal file mode", mode);
    }
  }
}
