package dev.agentcompute.capabilities.mac;

import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.Cancellation;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.ExecRequest;
import dev.agentcompute.capabilities.model.ExecResult;
import dev.agentcompute.capabilities.model.ExecUser;
import dev.agentcompute.capabilities.model.InstanceAction;
import dev.agentcompute.capabilities.model.InstancePlan;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.platform.InstanceDriver;
import dev.agentcompute.lume.Guest;
import dev.agentcompute.lume.GuestCommand;
import dev.agentcompute.lume.LumeException;
import dev.agentcompute.lume.LumeVm;
import dev.agentcompute.lume.MacHost;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Mac instances: one Lume VM each, cloned from the image's seed
 * (docs/reference/capabilities.md#macos-guests).
 */
final class MacInstanceDriver implements InstanceDriver {
  static final int OUTPUT_LIMIT = 65_536;

  private final MacHost host;
  private final Sidecars sidecars;
  private final MacVms vms;
  private final MacConfig config;
  private final Map<String, String> macs = new ConcurrentHashMap<>();

  MacInstanceDriver(MacHost host, Sidecars sidecars, MacVms vms, MacConfig config) {
    this.host = host;
    this.sidecars = sidecars;
    this.vms = vms;
    this.config = config;
  }

  static String vmName(String sandbox, String instance) {
    return "ac-" + sandbox + "-" + instance;
  }

  @Override
  public List<SandboxInstance> list(Sandbox sandbox) {
    List<SandboxInstance> all = new ArrayList<>();
    for (var e : asRead(sandbox).instances().entrySet()) {
      view(e.getKey(), e.getValue()).ifPresent(all::add);
    }
    return all;
  }

  /** From the sidecar alone: no Lume call. */
  @Override
  public int count(Sandbox sandbox) {
    return asRead(sandbox).instances().size();
  }

  @Override
  public Optional<SandboxInstance> find(Sandbox sandbox, String name) {
    return find(asRead(sandbox), name);
  }

  private Optional<SandboxInstance> find(Sidecar record, String name) {
    Sidecar.Instance instance = record.instances().get(name);
    return instance == null ? Optional.empty() : view(name, instance);
  }

  private Optional<SandboxInstance> view(String name, Sidecar.Instance instance) {
    Optional<LumeVm> found = vms.get(instance.vm());
    if (found.isEmpty()) {
      return Optional.empty(); // the VM disappeared: the instance is omitted
    }
    LumeVm vm = found.get();
    String status =
        switch (vm.status()) {
          case "running" -> "Running";
          case "stopped" -> "Stopped";
          default ->
              vm.status().isEmpty()
                  ? "Unknown"
                  : Character.toUpperCase(vm.status().charAt(0)) + vm.status().substring(1);
        };
    String mac = macs.computeIfAbsent(instance.vm(), vms::macAddress);
    List<String> addresses = vm.running() ? vm.ip().map(List::of).orElse(List.of()) : List.of();
    int cpus = vm.cpuCount() > 0 ? vm.cpuCount() : instance.cpus();
    int memory = vm.memorySize() > 0 ? (int) (vm.memorySize() >> 20) : instance.memoryMb();
    return Optional.of(
        new SandboxInstance(
            name,
            "vm",
            instance.image(),
            status,
            cpus,
            memory,
            List.of(new SandboxInstance.Nic("en0", "default", mac, addresses)),
            instance.desktop(),
            List.copyOf(new TreeMap<>(instance.snapshots()).keySet()),
            Map.of("en0", addresses),
            host.config().hostName(),
            "macos",
            vm.running() ? vm.vnc().map(this::onTheMacHost).orElse("") : ""));
  }

  /**
   * Lume's {@code vncUrl} names the listener as the Mac sees it ({@code vnc://:pw@127.0.0.1:5901}):
   * a loopback host becomes {@code lume.host}, which is where a human reaches it
   * (docs/reference/capabilities.md#desktops).
   */
  private String onTheMacHost(String url) {
    return VncUrls.onHost(url, host.config().hostName());
  }

  /** The guests' Driver path as the Mac host's configuration names it. */
  @Override
  public String cuaDriverPath() {
    return host.config().guestPaths().cuaDriver();
  }

  @Override
  public String macGuestHome() {
    return host.config().guestPaths().home();
  }

  private record Pending(
      String sandbox,
      String name,
      Sandbox box,
      Sidecar.Instance instance,
      boolean start,
      Instant deadline)
      implements PendingInstance {}

  @Override
  public PendingInstance accept(Sandbox sandbox, InstancePlan plan) {
    // A guest has one NIC on the host's network and runs on the one host: no placement.
    boolean defaultNetwork =
        plan.network() == null || plan.network().isEmpty() || plan.network().equals("default");
    if ((plan.host() != null && !plan.host().isEmpty()) || !defaultNetwork) {
      throw Errors.unsupportedOn(MacPlatform.NAME);
    }
    if (plan.cpus() <= 0 || plan.memoryMb() <= 0 || plan.diskGb() <= 0) {
      throw Errors.of("cpu, memory, and disk size must be positive");
    }
    Sidecar record = record(sandbox);
    if (record.instances().containsKey(plan.name())) {
      throw Errors.instanceExists(plan.name(), sandbox.name());
    }
    String seed = plan.source().sourceAlias();
    if (seed == null || seed.isEmpty()) {
      throw Errors.of("image \"%s\" has no Lume seed", plan.image());
    }
    String vm = vmName(sandbox.name(), plan.name());
    Sidecar.Instance instance =
        new Sidecar.Instance(
            vm,
            plan.image(),
            seed,
            plan.source().desktop(),
            plan.cpus(),
            plan.memoryMb(),
            plan.diskGb(),
            false,
            Map.of(),
            null);
    Instant deadline = Instant.now().plus(config.createBudget());
    java.util.function.Supplier<Void> create =
        () -> {
          createClone(sandbox, plan, instance);
          return null;
        };
    if (plan.start()) {
      vms.underGuestBudget(create);
    } else {
      create.get();
    }
    return new Pending(
        sandbox.name(), plan.name(), sandbox, instance.withPrepared(true), plan.start(), deadline);
  }

  private void createClone(Sandbox sandbox, InstancePlan plan, Sidecar.Instance instance) {
    LumeVm seed =
        vms.get(instance.seed())
            .orElseThrow(
                () ->
                    Errors.of(
                        "seed \"%s\" for image \"%s\" is not on the host",
                        instance.seed(), plan.image()));
    long seedBytes = seed.diskSize() == null ? 0 : seed.diskSize().total();
    if (((long) plan.diskGb() << 30) < seedBytes) {
      throw Errors.of(
          "disk size %dGiB would shrink the clone from %d bytes", plan.diskGb(), seedBytes);
    }
    if (vms.get(instance.vm()).isPresent()) {
      throw Errors.of("lume vm \"%s\" already exists", instance.vm());
    }
    update(sandbox, plan.name(), instance);
    MacFailures.run(() -> vms.api().cloneVm(instance.seed(), instance.vm()));
    try {
      vms.prepare(instance, seedBytes);
    } catch (RuntimeException e) {
      // An unpinned clone must never boot: it would present a new machine identity.
      MacFailures.run(() -> vms.api().delete(instance.vm()));
      remove(sandbox, plan.name());
      throw e;
    }
    update(sandbox, plan.name(), instance.withPrepared(true));
  }

  @Override
  public SandboxInstance finish(PendingInstance pending) {
    Pending p = (Pending) pending;
    if (p.start()) {
      vms.underGuestBudget(
          () -> {
            vms.start(p.instance(), p.deadline());
            return null;
          });
    }
    // Read afresh: the sidecar read with the sandbox predates this instance.
    return find(record(p.box()), p.name())
        .orElseThrow(() -> new BackendException(BackendException.Kind.FAILED, "vm vanished"));
  }

  @Override
  public void delete(Sandbox sandbox, String name) {
    Sidecar.Instance instance = record(sandbox).instances().get(name);
    if (instance == null) {
      throw Errors.instanceNotFound(name, sandbox.name());
    }
    vms.deleteMapped(instance);
    remove(sandbox, name);
  }

  @Override
  public String changeState(Sandbox sandbox, String name, InstanceAction action, boolean force) {
    Sidecar.Instance instance = require(sandbox, name);
    Optional<LumeVm> vm = vms.get(instance.vm());
    if (action == InstanceAction.STOP) {
      vms.stop(instance.vm());
      return "Stopped";
    }
    if (vm.isEmpty()) {
      throw Errors.of("instance \"%s\" is not prepared; delete it and recreate", name);
    }
    if (!instance.prepared()) {
      // A clone left unprepared by an interrupted create: pin and size it again before it boots.
      vms.prepare(instance, vm.get().diskSize() == null ? 0 : vm.get().diskSize().total());
      instance = instance.withPrepared(true);
      update(sandbox, name, instance);
    }
    if (action == InstanceAction.START && vm.get().running()) {
      return "Running";
    }
    if (action == InstanceAction.RESTART && vm.get().running()) {
      vms.stop(instance.vm());
    }
    Sidecar.Instance prepared = instance;
    vms.underGuestBudget(
        () -> {
          vms.start(prepared, Instant.now().plus(config.createBudget()));
          return null;
        });
    return "Running";
  }

  @Override
  public ExecResult exec(Sandbox sandbox, String name, ExecRequest request) {
    OptionalInt uid = ExecUser.parseMac(request.user());
    String user = uid.isPresent() ? Integer.toUnsignedString(uid.getAsInt()) : "";
    String line;
    try {
      line = GuestCommand.build(request.argv(), request.env(), request.cwd().orElse(""), user);
    } catch (IllegalArgumentException e) {
      throw Errors.of("%s", e.getMessage());
    }
    byte[] stdin = request.stdin().orElse("").getBytes(StandardCharsets.UTF_8);
    Guest.Result r =
        withGuest(
            sandbox, name, g -> g.exec(line, stdin, OUTPUT_LIMIT, request.timeout().orElse(null)));
    if (r.exitCode() == Guest.TRANSPORT_FAILURE) {
      throw Errors.of("guest ssh transport error");
    }
    return new ExecResult(
        r.exitCode(),
        new String(r.stdout(), StandardCharsets.UTF_8),
        new String(r.stderr(), StandardCharsets.UTF_8),
        r.stdoutTruncated(),
        r.stderrTruncated(),
        r.timedOut());
  }

  @Override
  public byte[] readFile(Sandbox sandbox, String name, String path, int limit) {
    try {
      return withGuest(sandbox, name, g -> g.readFile(path, limit));
    } catch (BackendException e) {
      if (e.isNotFound()) {
        throw Errors.of(
            "file not found on instance \"%s\" in sandbox \"%s\"", name, sandbox.name());
      }
      throw e;
    }
  }

  @Override
  public void writeFile(Sandbox sandbox, String name, String path, byte[] content, Integer mode) {
    withGuest(
        sandbox,
        name,
        g -> {
          g.writeFile(path, content, mode);
          return null;
        });
  }

  private interface GuestCall<T> {
    T apply(Guest guest) throws LumeException, InterruptedException;
  }

  private <T> T withGuest(Sandbox sandbox, String name, GuestCall<T> call) {
    Sidecar.Instance instance = asRead(sandbox).instances().get(name);
    if (instance == null) {
      throw Errors.instanceNotFound(name, sandbox.name());
    }
    LumeVm vm =
        vms.get(instance.vm()).orElseThrow(() -> Errors.instanceNotFound(name, sandbox.name()));
    String ip = vm.ip().orElseThrow(() -> Errors.of("guest ssh transport error"));
    try (Guest guest = host.guest(ip, instance.seed(), config.guestKey(instance.image()))) {
      return call.apply(guest);
    } catch (LumeException.Unavailable e) {
      throw Errors.of("guest ssh transport error");
    } catch (LumeException e) {
      if (e instanceof LumeException.NotFound) {
        throw MacFailures.translate(e);
      }
      throw Errors.of("%s", e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw Cancellation.canceled(e);
    }
  }

  Sidecar.Instance require(Sandbox sandbox, String name) {
    Sidecar.Instance instance = record(sandbox).instances().get(name);
    if (instance == null) {
      throw Errors.instanceNotFound(name, sandbox.name());
    }
    return instance;
  }

  /**
   * The sidecar read with {@code sandbox} (docs/reference/exec-path.md), else read now: for calls
   * that only read it (find, list, exec, files).
   */
  private Sidecar asRead(Sandbox sandbox) {
    return sandbox
        .stored()
        .filter(Sidecar.class::isInstance)
        .map(Sidecar.class::cast)
        .orElseGet(() -> record(sandbox));
  }

  /** The sidecar as it is now on the host: for calls that change it. */
  Sidecar record(Sandbox sandbox) {
    return sidecars.read(sandbox.name()).orElseThrow(() -> Errors.sandboxNotFound(sandbox.name()));
  }

  void update(Sandbox sandbox, String name, Sidecar.Instance instance) {
    Sidecar record = record(sandbox);
    Map<String, Sidecar.Instance> instances = new TreeMap<>(record.instances());
    instances.put(name, instance);
    sidecars.write(record.withInstances(instances));
  }

  private void remove(Sandbox sandbox, String name) {
    Sidecar record = record(sandbox);
    Map<String, Sidecar.Instance> instances = new TreeMap<>(record.instances());
    instances.remove(name);
    sidecars.write(record.withInstances(instances));
  }
}
