package dev.agentcompute.capabilities.compute.incus;

import dev.agentcompute.capabilities.compute.BackendException;
import dev.agentcompute.capabilities.compute.BackendException.Kind;
import dev.agentcompute.capabilities.compute.ComputeBackend.PendingInstance;
import dev.agentcompute.capabilities.compute.Errors;
import dev.agentcompute.capabilities.compute.ExecRequest;
import dev.agentcompute.capabilities.compute.ExecResult;
import dev.agentcompute.capabilities.compute.Instance;
import dev.agentcompute.capabilities.compute.InstanceSpec;
import dev.agentcompute.capabilities.compute.ResolvedImage;
import dev.agentcompute.capabilities.compute.Sandbox;
import dev.agentcompute.capabilities.compute.Snapshot;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.sandbox.Names;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import dev.agentcompute.incus.BoundedFileContent;
import dev.agentcompute.incus.Image;
import dev.agentcompute.incus.ImagePublish;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.incus.PendingOperation;
import dev.agentcompute.incus.Tagged;

/**
 * Instances of a sandbox project: lifecycle, exec, files, snapshots, publishing and NICs. Calls
 * throw incus-client's {@link IncusException}s; {@link IncusBackend} translates them.
 */
final class IncusInstances {
  private static final Duration CREATE_BUDGET = IncusBackend.OPERATION_BUDGET;
  private static final Duration STATE_BUDGET = Duration.ofMinutes(5);
  private static final long POLL_MILLIS = 200;

  private final ComputeConfig config;
  private final IncusBackend backend;
  /** An exec without its own deadline still needs one for the client; the caller's cancellation ends it first. */
  private static final Duration NO_EXEC_DEADLINE = Duration.ofDays(1);

  private final SecureRandom random = new SecureRandom();
  private final IncusClient client;

  IncusInstances(IncusClient client, ComputeConfig config, IncusBackend backend) {
    this.client = client;
    this.config = config;
    this.backend = backend;
  }

  private IncusClient in(Sandbox sandbox) {
    return in(sandbox.name());
  }

  private IncusClient in(String sandbox) {
    return client.inProject(Meta.project(sandbox));
  }

  // ---- reading ---------------------------------------------------------------------------------

  List<Instance> list(Sandbox sandbox) {
    Map<String, String> logical = logicalNames(sandbox);
    List<Instance> result = new ArrayList<>();
    for (dev.agentcompute.incus.Instance instance : in(sandbox).instances().listWithState()) {
      result.add(parse(instance, logical));
    }
    return result;
  }

  Optional<Instance> get(Sandbox sandbox, String name) {
    try {
      return Optional.of(parse(in(sandbox).instances().get(name), logicalNames(sandbox)));
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        return Optional.empty();
      }
      throw e;
    }
  }

  private Instance require(Sandbox sandbox, String name) {
    return get(sandbox, name).orElseThrow(() -> Errors.instanceNotFound(name, sandbox.name()));
  }

  /** Physical bridge name to logical name for this sandbox. */
  private Map<String, String> logicalNames(Sandbox sandbox) {
    Map<String, String> result = new LinkedHashMap<>();
    backend.reservations(sandbox.name()).forEach((logical, physical) -> result.put(physical, logical));
    backend.bridges().taggedWith(sandbox.name()).forEach((logical, physical) -> result.put(physical, logical));
    return result;
  }

  private static Instance parse(dev.agentcompute.incus.Instance node, Map<String, String> logical) {
    Map<String, String> cfg = node.config();
    Map<String, Map<String, String>> devices = node.expandedDevices().isEmpty() ? node.devices()
        : node.expandedDevices();
    Map<String, dev.agentcompute.incus.Instance.Nic> stateNetwork = node.state() == null ? Map.of()
        : node.state().network();
    List<Instance.Nic> nics = new ArrayList<>();
    Map<String, List<String>> addresses = new LinkedHashMap<>();
    devices.forEach((key, device) -> {
      if (!"nic".equals(device.get("type"))) {
        return;
      }
      String nicName = device.getOrDefault("name", key);
      String mac = device.getOrDefault("hwaddr", "");
      if (mac.isEmpty()) {
        mac = cfg.getOrDefault("volatile." + key + ".hwaddr", "");
      }
      List<String> observed = new ArrayList<>();
      dev.agentcompute.incus.Instance.Nic iface = stateNetwork.get(nicName);
      if (!mac.isEmpty()) {
        for (dev.agentcompute.incus.Instance.Nic candidate : stateNetwork.values()) {
          if (mac.equalsIgnoreCase(candidate.hwaddr() == null ? "" : candidate.hwaddr())) {
            iface = candidate;
          }
        }
      }
      for (dev.agentcompute.incus.Instance.Address address : iface == null ? List.<dev.agentcompute.incus.Instance.Address>of()
          : iface.addresses()) {
        String scope = address.scope() == null ? "" : address.scope();
        if (!scope.equals("link") && !scope.equals("local")) {
          observed.add(address.address());
        }
      }
      String network = device.getOrDefault("network", "");
      nics.add(new Instance.Nic(nicName, logical.getOrDefault(network, network), mac, observed));
      addresses.put(nicName, observed);
    });
    List<String> snapshots = new ArrayList<>();
    for (dev.agentcompute.incus.Snapshot snapshot : node.snapshots()) {
      snapshots.add(shortName(snapshot.name()));
    }
    String type = node.type() == null ? "container" : node.type();
    return new Instance(
        node.name(),
        type.equals("virtual-machine") ? "vm" : "container",
        cfg.getOrDefault(Meta.IMAGE, ""),
        node.status() == null ? "" : node.status(),
        parseInt(cfg.getOrDefault("limits.cpu", "")),
        memoryMb(cfg.getOrDefault("limits.memory", "")),
        nics,
        "true".equals(cfg.get(Meta.DESKTOP)),
        snapshots,
        addresses,
        node.location() == null ? "" : node.location(),
        cfg.getOrDefault("image.os", ""));
  }

  /** A snapshot's own name, whether or not the server prefixed it with {@code instance/}. */
  private static String shortName(String name) {
    String full = name == null ? "" : name;
    return full.contains("/") ? full.substring(full.indexOf('/') + 1) : full;
  }

  private static int parseInt(String text) {
    try {
      return Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static int memoryMb(String text) {
    String t = text.trim();
    try {
      if (t.endsWith("MiB")) {
        return Integer.parseInt(t.substring(0, t.length() - 3));
      }
      if (t.endsWith("GiB")) {
        return Integer.parseInt(t.substring(0, t.length() - 3)) * 1024;
      }
      if (t.endsWith("MB")) {
        return (int) (Long.parseLong(t.substring(0, t.length() - 2)) * 1_000_000L / (1024 * 1024));
      }
      return t.isEmpty() ? 0 : (int) (Long.parseLong(t) / (1024 * 1024));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  // ---- images ----------------------------------------------------------------------------------

  Optional<ResolvedImage> publishedImage(Sandbox sandbox, String name) {
    IncusClient project = in(sandbox);
    try {
      Image image = project.images().get(project.images().alias(name, null).target());
      Map<String, String> props = image.properties();
      if (!"true".equals(props.get(Meta.PUBLISHED)) || !"1".equals(props.get(Meta.VERSION))) {
        return Optional.empty();
      }
      String kind = props.getOrDefault(Meta.PREFIX + "kind",
          "virtual-machine".equals(image.type()) ? "vm" : "container");
      String version = props.getOrDefault("release", props.getOrDefault("version", "published"));
      return Optional.of(new ResolvedImage(name, props.getOrDefault("os", "unknown"), version, kind, List.of(kind),
          "incus", "true".equals(props.get(Meta.DESKTOP)),
          positive(props.getOrDefault(Meta.PREFIX + "cpus", ""), 1),
          positive(props.getOrDefault(Meta.PREFIX + "memory_mb", ""), 512),
          positive(props.getOrDefault(Meta.PREFIX + "disk_gb", ""), 2), "", image.fingerprint()));
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        return Optional.empty();
      }
      throw e;
    }
  }

  private static int positive(String text, int fallback) {
    int value = parseInt(text);
    return value > 0 ? value : fallback;
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
      in(sandbox).images().get(fingerprint);
      return fingerprint;
    } catch (IncusException e) {
      if (!IncusFailures.isNotFound(e)) {
        throw e;
      }
    }
    source.images().copyToProject(fingerprint, Meta.project(sandbox.name()));
    return fingerprint;
  }

  // ---- lifecycle -------------------------------------------------------------------------------

  private record Pending(String sandbox, String name, PendingOperation operation, boolean start, Instant deadline)
      implements PendingInstance {}

  PendingInstance accept(Sandbox sandbox, InstanceSpec spec) {
    if (get(sandbox, spec.name()).isPresent()) {
      throw Errors.instanceExists(spec.name(), sandbox.name());
    }
    Instant deadline = Instant.now().plus(CREATE_BUDGET);
    String fingerprint = ensureImage(sandbox, spec.source());
    Map<String, Map<String, String>> devices = new LinkedHashMap<>();
    devices.put("root", Map.of("type", "disk", "path", "/", "pool", config.storagePool(),
        "size", spec.diskGb() + "GiB"));
    if (!spec.network().equals(Names.NONE)) {
      String physical = backend.physicalNetwork(sandbox, spec.network())
          .orElseThrow(() -> Errors.networkNotFound(spec.network(), sandbox.name()));
      devices.put("eth0", Map.of("type", "nic", "network", physical, "name", "eth0"));
    }
    Map<String, String> cfg = new LinkedHashMap<>();
    cfg.put("limits.cpu", Integer.toString(spec.cpus()));
    cfg.put("limits.memory", spec.memoryMb() + "MiB");
    cfg.put(Meta.IMAGE, spec.image());
    cfg.put(Meta.DESKTOP, Boolean.toString(spec.source().desktop()));
    cfg.put("image.os", spec.source().os());
    PendingOperation operation = in(sandbox).instances().createAsync(new dev.agentcompute.incus.InstanceSpec(
        spec.name(), spec.kind().equals("vm") ? "virtual-machine" : "container", null,
        dev.agentcompute.incus.InstanceSpec.Source.imageFingerprint(fingerprint), List.of(), cfg, devices, null, null,
        null));
    return new Pending(sandbox.name(), spec.name(), operation, spec.start(), deadline);
  }

  Instance finish(PendingInstance handle) {
    Pending pending = (Pending) handle;
    Sandbox sandbox = backend.getSandbox(pending.sandbox())
        .orElseThrow(() -> Errors.sandboxNotFound(pending.sandbox()));
    dev.agentcompute.incus.Instances instances = in(sandbox).instances();
    try {
      pending.operation().await(remaining(pending.deadline()));
      if (pending.start()) {
        if (!isRunning(status(instances.state(pending.name())))) {
          instances.changeState(pending.name(), "start", -1, false).await(remaining(pending.deadline()));
        }
        awaitStatus(sandbox, pending.name(), true, pending.deadline());
      }
    } catch (IncusException | BackendException e) {
      if (!(e instanceof IncusException.Cancelled) && Instant.now().isAfter(pending.deadline())) {
        throw Errors.of("instance \"%s\" creation timed out in sandbox \"%s\"; inspect it before retrying",
            pending.name(), pending.sandbox());
      }
      throw e;
    }
    return require(sandbox, pending.name());
  }

  private static Duration remaining(Instant deadline) {
    Duration left = Duration.between(Instant.now(), deadline);
    return left.isNegative() || left.isZero() ? Duration.ofMillis(1) : left;
  }

  private static String status(dev.agentcompute.incus.Instance.State state) {
    return state == null || state.status() == null ? "" : state.status();
  }

  private static boolean isRunning(String status) {
    return status.equals("Running") || status.equals("Ready");
  }

  private void awaitStatus(Sandbox sandbox, String name, boolean running, Instant deadline) {
    dev.agentcompute.incus.Instances instances = in(sandbox).instances();
    while (true) {
      String status = status(instances.state(name));
      if (running ? isRunning(status) : status.equals("Stopped")) {
        return;
      }
      if (status.equals("Error")) {
        throw Errors.of("instance entered error state");
      }
      if (Instant.now().isAfter(deadline)) {
        throw new BackendException(Kind.FAILED, "instance " + name + " did not reach the requested state");
      }
      sleep(POLL_MILLIS);
    }
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CancellationException("context canceled");
    }
  }

  void delete(Sandbox sandbox, String name) {
    require(sandbox, name);
    forceDelete(in(sandbox), name);
  }

  /** Stops (forcefully) and deletes an instance with its snapshots; a missing instance is fine. */
  void forceDelete(IncusClient project, String name) {
    IncusFailures.ignoreNotFound(() -> {
      if (!status(project.instances().state(name)).equals("Stopped")) {
        project.instances().changeState(name, "stop", -1, true).await();
      }
      project.instances().delete(name);
    });
  }

  String changeState(Sandbox sandbox, String name, String action, boolean force) {
    require(sandbox, name);
    dev.agentcompute.incus.Instances instances = in(sandbox).instances();
    String status = status(instances.state(name));
    boolean wantRunning = !action.equals("stop");
    boolean satisfied = action.equals("stop") ? status.equals("Stopped") : action.equals("start") && isRunning(status);
    if (!satisfied) {
      String effective = action.equals("restart") && status.equals("Stopped") ? "start" : action;
      instances.changeState(name, effective, -1, force).await(STATE_BUDGET);
      awaitStatus(sandbox, name, wantRunning, Instant.now().plus(STATE_BUDGET));
    }
    return status(instances.state(name));
  }

  // ---- exec and files --------------------------------------------------------------------------

  /**
   * Runs a command over Incus exec websockets (incus-client): stdin is sent then closed, each stream
   * keeps its first 64 KiB while the rest is drained, and at the exec deadline the command is killed
   * with signal 9 and reported as {@code timed_out} (exit code -1). Without an exec deadline the call is
   * bounded only by the caller (a cancelled caller's interrupt kills the command too).
   */
  ExecResult exec(Sandbox sandbox, String name, ExecRequest request) {
    Duration deadline = request.timeout() != null ? request.timeout() : NO_EXEC_DEADLINE;
    dev.agentcompute.incus.ExecRequest call = new dev.agentcompute.incus.ExecRequest(request.argv(), request.env(),
        request.cwd() == null || request.cwd().isEmpty() ? null : request.cwd(),
        request.uid() >= 0 ? request.uid() : null,
        request.stdin() == null ? new byte[0] : request.stdin().getBytes(StandardCharsets.UTF_8), deadline);
    dev.agentcompute.incus.ExecResult result;
    try {
      result = client.inProject(Meta.project(sandbox.name())).instances().exec(name, call);
    } catch (IncusException.Cancelled e) {
      CancellationException cancelled = new CancellationException("context canceled");
      cancelled.initCause(e);
      throw cancelled;
    } catch (IncusException.NotFound e) {
      throw Errors.instanceNotFound(name, sandbox.name());
    } catch (IncusException e) {
      throw new BackendException(e instanceof IncusException.Unavailable ? Kind.UNAVAILABLE : Kind.FAILED,
          "exec in " + name + ": " + e.getMessage(), e);
    }
    boolean timedOut = result.timedOut() && request.timeout() != null;
    return new ExecResult(timedOut ? -1 : result.exitCode(), result.stdoutText(), result.stderrText(),
        result.stdoutTruncated(), result.stderrTruncated(), timedOut);
  }

  /**
   * At most {@code limit + 1} bytes of a file (one more than allowed, so the caller can tell a file
   * over the limit); the rest is never transferred.
   */
  byte[] readFile(Sandbox sandbox, String name, String path, int limit) {
    BoundedFileContent file;
    try {
      file = in(sandbox).files().read(name, path, limit + 1L);
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        throw Errors.of("file not found on instance \"%s\" in sandbox \"%s\"", name, sandbox.name());
      }
      throw e;
    }
    if (!file.isRegularFile()) {
      throw Errors.of("path is not a regular file on instance \"%s\" in sandbox \"%s\"", name, sandbox.name());
    }
    return file.content();
  }

  void writeFile(Sandbox sandbox, String name, String path, byte[] content, Integer mode) {
    in(sandbox).files().write(name, path, content, mode);
  }

  // ---- snapshots and publishing ----------------------------------------------------------------

  void createSnapshot(Sandbox sandbox, String name, String snapshot) {
    Instance instance = require(sandbox, name);
    if (instance.snapshots().contains(snapshot)) {
      throw Errors.of("snapshot \"%s\" already exists on instance \"%s\" in sandbox \"%s\"", snapshot, name,
          sandbox.name());
    }
    try {
      in(sandbox).snapshots().create(name, snapshot);
    } catch (IncusException e) {
      if (e instanceof IncusException.Conflict || String.valueOf(e.getMessage()).contains("UNIQUE constraint failed")) {
        throw Errors.of("snapshot \"%s\" already exists on instance \"%s\" in sandbox \"%s\"", snapshot, name,
            sandbox.name());
      }
      throw e;
    }
  }

  List<Snapshot> listSnapshots(Sandbox sandbox, String name) {
    require(sandbox, name);
    List<Snapshot> result = new ArrayList<>();
    for (dev.agentcompute.incus.Snapshot snapshot : in(sandbox).snapshots().list(name)) {
      result.add(new Snapshot(shortName(snapshot.name()),
          snapshot.createdAt() == null ? Instant.EPOCH : snapshot.createdAt()));
    }
    return result;
  }

  void deleteSnapshot(Sandbox sandbox, String name, String snapshot) {
    require(sandbox, name);
    try {
      in(sandbox).snapshots().delete(name, snapshot);
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        throw Errors.snapshotNotFound(snapshot, name, sandbox.name());
      }
      throw e;
    }
  }

  /**
   * Recreates the instance from a snapshot: copy the snapshot to a staged instance, delete the
   * original with all its snapshots, rename the copy, start it. A failure after the copy keeps the
   * staged instance and says so.
   */
  void restoreSnapshot(Sandbox sandbox, String name, String snapshot) {
    IncusClient project = in(sandbox);
    dev.agentcompute.incus.Instance instance;
    dev.agentcompute.incus.Snapshot snap;
    try {
      instance = project.instances().get(name);
    } catch (IncusException e) {
      throw IncusFailures.isNotFound(e) ? Errors.instanceNotFound(name, sandbox.name()) : e;
    }
    try {
      snap = project.snapshots().get(name, snapshot);
    } catch (IncusException e) {
      throw IncusFailures.isNotFound(e) ? Errors.snapshotNotFound(snapshot, name, sandbox.name()) : e;
    }
    if (!"Stopped".equals(instance.status())) {
      project.instances().changeState(name, "stop", -1, true).await();
    }
    Map<String, String> cfg = new LinkedHashMap<>();
    snap.config().forEach((key, value) -> {
      if (!key.startsWith("volatile.")) {
        cfg.put(key, value);
      }
    });
    instance.config().forEach((key, value) -> {
      if (key.startsWith(Meta.PREFIX)) {
        cfg.put(key, value);
      }
    });
    byte[] suffix = new byte[5];
    random.nextBytes(suffix);
    String staged = "restore-" + base32(suffix);
    String architecture = snap.architecture() == null || snap.architecture().isEmpty() ? instance.architecture()
        : snap.architecture();
    // Profiles and ephemerality never change after creation here, so the instance's equal the snapshot's.
    project.instances().create(new dev.agentcompute.incus.InstanceSpec(staged,
        instance.type() == null ? "container" : instance.type(), null,
        dev.agentcompute.incus.InstanceSpec.Source.copy(name + "/" + snapshot), instance.profiles(), cfg,
        snap.devices(), instance.ephemeral(), architecture, null));
    try {
      project.instances().delete(name);
    } catch (IncusException e) {
      throw new BackendException(IncusFailures.kindOf(e), "remove original instance; snapshot copy retained as \""
          + staged + "\": " + e.getMessage(), e);
    }
    try {
      project.instances().rename(staged, name);
      project.instances().changeState(name, "start", -1, false).await();
      awaitStatus(sandbox, name, true, Instant.now().plus(STATE_BUDGET));
    } catch (IncusException | BackendException e) {
      if (e instanceof IncusException.Cancelled cancelled) {
        throw cancelled;
      }
      BackendException.Kind kind = e instanceof IncusException incus ? IncusFailures.kindOf(incus)
          : ((BackendException) e).kind();
      throw new BackendException(kind, "finish restore of \"" + name + "\" from staged copy \"" + staged + "\": "
          + e.getMessage(), e);
    }
  }

  private static String base32(byte[] bytes) {
    String alphabet = "abcdefghijklmnopqrstuvwxyz234567";
    StringBuilder out = new StringBuilder();
    int buffer = 0;
    int bits = 0;
    for (byte b : bytes) {
      buffer = (buffer << 8) | (b & 0xff);
      bits += 8;
      while (bits >= 5) {
        out.append(alphabet.charAt((buffer >> (bits - 5)) & 31));
        bits -= 5;
      }
    }
    return out.toString();
  }

  void publish(Sandbox sandbox, String name, String image, ResolvedImage origin) {
    IncusClient project = in(sandbox);
    Instance instance = require(sandbox, name);
    if (!instance.status().equals("Stopped")) {
      throw Errors.of("instance \"%s\" must be stopped before publishing", name);
    }
    try {
      project.images().alias(image, null);
      throw Errors.of("image \"%s\" already exists in sandbox \"%s\"", image, sandbox.name());
    } catch (IncusException e) {
      if (!IncusFailures.isNotFound(e)) {
        throw e;
      }
    }
    Map<String, String> properties = new LinkedHashMap<>();
    project.instances().getTagged(name).value().config().forEach((key, value) -> {
      if (key.startsWith("image.")) {
        properties.put(key.substring("image.".length()), value);
      }
    });
    properties.put(Meta.VERSION, "1");
    properties.put(Meta.SANDBOX, sandbox.name());
    properties.put(Meta.IMAGE, image);
    properties.put(Meta.PUBLISHED, "true");
    properties.put(Meta.DESKTOP, Boolean.toString(instance.desktop()));
    properties.put(Meta.PREFIX + "kind", instance.kind());
    properties.put(Meta.PREFIX + "cpus", Integer.toString(origin == null ? 1 : origin.cpus()));
    properties.put(Meta.PREFIX + "memory_mb", Integer.toString(origin == null ? 512 : origin.memoryMb()));
    properties.put(Meta.PREFIX + "disk_gb", Integer.toString(origin == null ? 2 : origin.diskGb()));
    project.images().publish(ImagePublish.of(name).withProperties(properties).withAliases(List.of(image)));
  }

  // ---- NICs ------------------------------------------------------------------------------------

  /** The instance's own devices with its ETag, for a guarded update. */
  private static Tagged<dev.agentcompute.incus.Instance> tagged(IncusClient project, Sandbox sandbox, String name) {
    try {
      return project.instances().getTagged(name);
    } catch (IncusException e) {
      throw IncusFailures.isNotFound(e) ? Errors.instanceNotFound(name, sandbox.name()) : e;
    }
  }

  /** A mutable copy of an instance's own devices. */
  private static Map<String, Map<String, String>> devices(dev.agentcompute.incus.Instance instance) {
    Map<String, Map<String, String>> devices = new LinkedHashMap<>();
    instance.devices().forEach((key, device) -> devices.put(key, new LinkedHashMap<>(device)));
    return devices;
  }

  Instance.Nic attachNic(Sandbox sandbox, String instanceName, String network, String nic, String ip, String mac) {
    IncusClient project = in(sandbox);
    Tagged<dev.agentcompute.incus.Instance> current = tagged(project, sandbox, instanceName);
    Map<String, Map<String, String>> devices = devices(current.value());
    Set<String> taken = new HashSet<>();
    devices.forEach((key, device) -> {
      taken.add(key);
      if (device.containsKey("name")) {
        taken.add(device.get("name"));
      }
    });
    String nicName = nic;
    if (nicName == null || nicName.isEmpty()) {
      int i = 0;
      while (taken.contains("eth" + i)) {
        i++;
      }
      nicName = "eth" + i;
    } else if (taken.contains(nicName)) {
      throw Errors.of("nic \"%s\" already exists on instance \"%s\"", nicName, instanceName);
    }
    String physical = backend.physicalNetwork(sandbox, network)
        .orElseThrow(() -> Errors.networkNotFound(network, sandbox.name()));
    Map<String, String> device = new LinkedHashMap<>();
    device.put("type", "nic");
    device.put("network", physical);
    device.put("name", nicName);
    if (ip != null && !ip.isEmpty()) {
      device.put("ipv4.address", ip);
    }
    if (mac != null && !mac.isEmpty()) {
      device.put("hwaddr", mac);
    }
    devices.put(nicName, device);
    project.instances().update(instanceName, current.value().toPut().withDevices(devices), current.etag());
    Instance after = require(sandbox, instanceName);
    final String chosen = nicName;
    return after.nics().stream().filter(n -> n.name().equals(chosen)).findFirst()
        .orElse(new Instance.Nic(chosen, network, mac == null ? "" : mac, List.of()));
  }

  void detachNic(Sandbox sandbox, String instanceName, String nic) {
    IncusClient project = in(sandbox);
    Tagged<dev.agentcompute.incus.Instance> current = tagged(project, sandbox, instanceName);
    Map<String, Map<String, String>> devices = devices(current.value());
    String key = null;
    for (var entry : devices.entrySet()) {
      if ("nic".equals(entry.getValue().get("type"))
          && (entry.getKey().equals(nic) || nic.equals(entry.getValue().get("name")))) {
        key = entry.getKey();
      }
    }
    if (key == null) {
      throw Errors.nicNotFound(nic, instanceName, sandbox.name());
    }
    devices.remove(key);
    project.instances().update(instanceName, current.value().toPut().withDevices(devices), current.etag());
  }
}
