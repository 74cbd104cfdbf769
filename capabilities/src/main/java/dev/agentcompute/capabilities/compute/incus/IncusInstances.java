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
import dev.agentcompute.capabilities.compute.Timestamps;
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
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Instances of a sandbox project: lifecycle, exec, files, snapshots, publishing and NICs. */
final class IncusInstances {
  private static final Duration CREATE_BUDGET = Duration.ofMinutes(10);
  private static final Duration STATE_BUDGET = Duration.ofMinutes(5);
  private static final long POLL_MILLIS = 200;

  private final IncusRest rest;
  private final ComputeConfig config;
  private final IncusBackend backend;
  /** An exec without its own deadline still needs one for the client; the caller's cancellation ends it first. */
  private static final Duration NO_EXEC_DEADLINE = Duration.ofDays(1);

  private final SecureRandom random = new SecureRandom();
  private final IncusClient client;

  IncusInstances(IncusRest rest, IncusClient client, ComputeConfig config, IncusBackend backend) {
    this.rest = rest;
    this.client = client;
    this.config = config;
    this.backend = backend;
  }

  private static String path(String name) {
    return "/1.0/instances/" + IncusRest.encode(name);
  }

  // ---- reading ---------------------------------------------------------------------------------

  List<Instance> list(Sandbox sandbox) {
    Map<String, String> logical = logicalNames(sandbox);
    List<Instance> result = new ArrayList<>();
    for (JsonNode node : rest.get(Meta.project(sandbox.name()), "/1.0/instances?recursion=2")) {
      result.add(parse(node, logical));
    }
    return result;
  }

  Optional<Instance> get(Sandbox sandbox, String name) {
    try {
      JsonNode node = rest.get(Meta.project(sandbox.name()), path(name) + "?recursion=1");
      return Optional.of(parse(node, logicalNames(sandbox)));
    } catch (BackendException e) {
      if (e.isNotFound()) {
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

  private static Instance parse(JsonNode node, Map<String, String> logical) {
    JsonNode cfg = node.path("config");
    JsonNode devices = node.path("expanded_devices").isObject() ? node.path("expanded_devices") : node.path("devices");
    JsonNode stateNetwork = node.path("state").path("network");
    List<Instance.Nic> nics = new ArrayList<>();
    Map<String, List<String>> addresses = new LinkedHashMap<>();
    devices.properties().forEach(entry -> {
      JsonNode device = entry.getValue();
      if (!"nic".equals(device.path("type").asString(""))) {
        return;
      }
      String nicName = device.path("name").asString(entry.getKey());
      String mac = device.path("hwaddr").asString("");
      if (mac.isEmpty()) {
        mac = cfg.path("volatile." + entry.getKey() + ".hwaddr").asString("");
      }
      List<String> observed = new ArrayList<>();
      JsonNode iface = stateNetwork.path(nicName);
      if (!mac.isEmpty()) {
        for (var candidate : stateNetwork.properties()) {
          if (mac.equalsIgnoreCase(candidate.getValue().path("hwaddr").asString(""))) {
            iface = candidate.getValue();
          }
        }
      }
      for (JsonNode address : iface.path("addresses")) {
        String scope = address.path("scope").asString("");
        if (!scope.equals("link") && !scope.equals("local")) {
          observed.add(address.path("address").asString());
        }
      }
      String network = device.path("network").asString("");
      nics.add(new Instance.Nic(nicName, logical.getOrDefault(network, network), mac, observed));
      addresses.put(nicName, observed);
    });
    List<String> snapshots = new ArrayList<>();
    for (JsonNode snapshot : node.path("snapshots")) {
      String name = snapshot.path("name").asString("");
      snapshots.add(name.contains("/") ? name.substring(name.indexOf('/') + 1) : name);
    }
    String type = node.path("type").asString("container");
    return new Instance(
        node.path("name").asString(),
        type.equals("virtual-machine") ? "vm" : "container",
        cfg.path(Meta.IMAGE).asString(""),
        node.path("status").asString(""),
        parseInt(cfg.path("limits.cpu").asString("")),
        memoryMb(cfg.path("limits.memory").asString("")),
        nics,
        "true".equals(cfg.path(Meta.DESKTOP).asString("")),
        snapshots,
        addresses,
        node.path("location").asString(""),
        cfg.path("image.os").asString(""));
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
    String project = Meta.project(sandbox.name());
    try {
      JsonNode alias = rest.get(project, "/1.0/images/aliases/" + IncusRest.encode(name));
      JsonNode image = rest.get(project, "/1.0/images/" + alias.path("target").asString());
      JsonNode props = image.path("properties");
      if (!"true".equals(props.path(Meta.PUBLISHED).asString("")) || !"1".equals(props.path(Meta.VERSION).asString(""))) {
        return Optional.empty();
      }
      String kind = props.path(Meta.PREFIX + "kind").asString(
          image.path("type").asString("container").equals("virtual-machine") ? "vm" : "container");
      String version = props.path("release").asString(props.path("version").asString("published"));
      return Optional.of(new ResolvedImage(name, props.path("os").asString("unknown"), version, kind, List.of(kind),
          "incus", "true".equals(props.path(Meta.DESKTOP).asString("")),
          positive(props.path(Meta.PREFIX + "cpus").asString(""), 1),
          positive(props.path(Meta.PREFIX + "memory_mb").asString(""), 512),
          positive(props.path(Meta.PREFIX + "disk_gb").asString(""), 2), "", image.path("fingerprint").asString()));
    } catch (BackendException e) {
      if (e.isNotFound()) {
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
  private String ensureImage(String project, ResolvedImage image) {
    if (!image.fingerprint().isEmpty()) {
      return image.fingerprint();
    }
    JsonNode alias = rest.get(config.imageProject(), "/1.0/images/aliases/" + IncusRest.encode(image.sourceAlias()));
    String fingerprint = alias.path("target").asString();
    try {
      rest.get(project, "/1.0/images/" + fingerprint);
      return fingerprint;
    } catch (BackendException e) {
      if (!e.isNotFound()) {
        throw e;
      }
    }
    UnixSocketHttp.Response export = rest.raw("GET",
        IncusRest.path(config.imageProject(), "/1.0/images/" + fingerprint + "/export"), Map.of(), null);
    UnixSocketHttp.Response upload = rest.raw("POST", IncusRest.path(project, "/1.0/images"),
        Map.of("Content-Type", export.header("content-type")), export.body());
    JsonNode root = rest.json().readTree(upload.body());
    rest.waitFor(project, root.path("metadata").path("id").asString(), CREATE_BUDGET, "import image " + image.name());
    return fingerprint;
  }

  // ---- lifecycle -------------------------------------------------------------------------------

  private record Pending(String sandbox, String name, String operation, boolean start, Instant deadline)
      implements PendingInstance {}

  PendingInstance accept(Sandbox sandbox, InstanceSpec spec) {
    String project = Meta.project(sandbox.name());
    if (get(sandbox, spec.name()).isPresent()) {
      throw Errors.instanceExists(spec.name(), sandbox.name());
    }
    Instant deadline = Instant.now().plus(CREATE_BUDGET);
    String fingerprint = ensureImage(project, spec.source());
    Map<String, Object> devices = new LinkedHashMap<>();
    devices.put("root", Map.of("type", "disk", "path", "/", "pool", config.storagePool(),
        "size", spec.diskGb() + "GiB"));
    if (!spec.network().equals(Names.NONE)) {
      String physical = backend.reservations(sandbox.name()).get(spec.network());
      if (physical == null) {
        throw Errors.networkNotFound(spec.network(), sandbox.name());
      }
      devices.put("eth0", Map.of("type", "nic", "network", physical, "name", "eth0"));
    }
    Map<String, String> cfg = new LinkedHashMap<>();
    cfg.put("limits.cpu", Integer.toString(spec.cpus()));
    cfg.put("limits.memory", spec.memoryMb() + "MiB");
    cfg.put(Meta.IMAGE, spec.image());
    cfg.put(Meta.DESKTOP, Boolean.toString(spec.source().desktop()));
    cfg.put("image.os", spec.source().os());
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", spec.name());
    body.put("type", spec.kind().equals("vm") ? "virtual-machine" : "container");
    body.put("source", Map.of("type", "image", "fingerprint", fingerprint));
    body.put("profiles", List.of());
    body.put("config", cfg);
    body.put("devices", devices);
    String operation = rest.start(project, "POST", "/1.0/instances", body);
    return new Pending(sandbox.name(), spec.name(), operation, spec.start(), deadline);
  }

  Instance finish(PendingInstance handle) {
    Pending pending = (Pending) handle;
    String project = Meta.project(pending.sandbox());
    Sandbox sandbox = backend.getSandbox(pending.sandbox())
        .orElseThrow(() -> Errors.sandboxNotFound(pending.sandbox()));
    try {
      rest.waitFor(project, pending.operation(), remaining(pending.deadline()), "create instance " + pending.name());
      if (pending.start()) {
        JsonNode state = rest.get(project, path(pending.name()) + "/state");
        if (!isRunning(state.path("status").asString(""))) {
          rest.call(project, "PUT", path(pending.name()) + "/state", Map.of("action", "start", "timeout", -1),
              null, remaining(pending.deadline()));
        }
        awaitStatus(sandbox, pending.name(), true, pending.deadline());
      }
    } catch (BackendException e) {
      if (Instant.now().isAfter(pending.deadline())) {
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

  private static boolean isRunning(String status) {
    return status.equals("Running") || status.equals("Ready");
  }

  private void awaitStatus(Sandbox sandbox, String name, boolean running, Instant deadline) {
    String project = Meta.project(sandbox.name());
    while (true) {
      String status = rest.get(project, path(name) + "/state").path("status").asString("");
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
    forceDelete(Meta.project(sandbox.name()), name);
  }

  /** Stops (forcefully) and deletes an instance with its snapshots; a missing instance is fine. */
  void forceDelete(String project, String name) {
    IncusBackend.ignoreNotFound(() -> {
      String status = rest.get(project, path(name) + "/state").path("status").asString("");
      if (!status.equals("Stopped")) {
        rest.call(project, "PUT", path(name) + "/state", Map.of("action", "stop", "timeout", -1, "force", true));
      }
      rest.call(project, "DELETE", path(name), null);
    });
  }

  String changeState(Sandbox sandbox, String name, String action, boolean force) {
    require(sandbox, name);
    String project = Meta.project(sandbox.name());
    String status = rest.get(project, path(name) + "/state").path("status").asString("");
    boolean wantRunning = !action.equals("stop");
    boolean satisfied = action.equals("stop") ? status.equals("Stopped") : action.equals("start") && isRunning(status);
    if (!satisfied) {
      String effective = action.equals("restart") && status.equals("Stopped") ? "start" : action;
      rest.call(project, "PUT", path(name) + "/state", Map.of("action", effective, "timeout", -1, "force", force),
          null, STATE_BUDGET);
      awaitStatus(sandbox, name, wantRunning, Instant.now().plus(STATE_BUDGET));
    }
    return rest.get(project, path(name) + "/state").path("status").asString("");
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

  byte[] readFile(Sandbox sandbox, String name, String path, int limit) {
    String target = IncusRest.path(Meta.project(sandbox.name()), path(name) + "/files?path=" + IncusRest.encode(path));
    UnixSocketHttp.Response response;
    try {
      response = rest.raw("GET", target, Map.of(), null, limit + 1);
    } catch (BackendException e) {
      if (e.isNotFound()) {
        throw Errors.of("file not found on instance \"%s\" in sandbox \"%s\"", name, sandbox.name());
      }
      throw e;
    }
    String type = response.header("x-incus-type");
    if (type != null && !type.equals("file")) {
      throw Errors.of("path is not a regular file on instance \"%s\" in sandbox \"%s\"", name, sandbox.name());
    }
    byte[] body = response.body();
    return body.length > limit + 1 ? java.util.Arrays.copyOf(body, limit + 1) : body;
  }

  void writeFile(Sandbox sandbox, String name, String path, byte[] content, Integer mode) {
    String target = IncusRest.path(Meta.project(sandbox.name()), path(name) + "/files?path=" + IncusRest.encode(path));
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", "application/octet-stream");
    headers.put("X-Incus-type", "file");
    headers.put("X-Incus-write", "overwrite");
    if (mode != null) {
      headers.put("X-Incus-mode", String.format("%04o", mode));
    }
    rest.raw("POST", target, headers, content);
  }

  // ---- snapshots and publishing ----------------------------------------------------------------

  void createSnapshot(Sandbox sandbox, String name, String snapshot) {
    Instance instance = require(sandbox, name);
    if (instance.snapshots().contains(snapshot)) {
      throw Errors.of("snapshot \"%s\" already exists on instance \"%s\" in sandbox \"%s\"", snapshot, name,
          sandbox.name());
    }
    try {
      rest.call(Meta.project(sandbox.name()), "POST", path(name) + "/snapshots",
          Map.of("name", snapshot, "stateful", false));
    } catch (BackendException e) {
      if (e.kind() == Kind.CONFLICT || e.getMessage().contains("UNIQUE constraint failed")) {
        throw Errors.of("snapshot \"%s\" already exists on instance \"%s\" in sandbox \"%s\"", snapshot, name,
            sandbox.name());
      }
      throw e;
    }
  }

  List<Snapshot> listSnapshots(Sandbox sandbox, String name) {
    require(sandbox, name);
    List<Snapshot> result = new ArrayList<>();
    for (JsonNode node : rest.get(Meta.project(sandbox.name()), path(name) + "/snapshots?recursion=1")) {
      String full = node.path("name").asString("");
      result.add(new Snapshot(full.contains("/") ? full.substring(full.indexOf('/') + 1) : full,
          Timestamps.parseOrEpoch(node.path("created_at").asString(""))));
    }
    return result;
  }

  void deleteSnapshot(Sandbox sandbox, String name, String snapshot) {
    require(sandbox, name);
    try {
      rest.call(Meta.project(sandbox.name()), "DELETE", path(name) + "/snapshots/" + IncusRest.encode(snapshot), null);
    } catch (BackendException e) {
      if (e.isNotFound()) {
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
    String project = Meta.project(sandbox.name());
    JsonNode instance;
    JsonNode snap;
    try {
      instance = rest.get(project, path(name));
    } catch (BackendException e) {
      throw e.isNotFound() ? Errors.instanceNotFound(name, sandbox.name()) : e;
    }
    try {
      snap = rest.get(project, path(name) + "/snapshots/" + IncusRest.encode(snapshot));
    } catch (BackendException e) {
      throw e.isNotFound() ? Errors.snapshotNotFound(snapshot, name, sandbox.name()) : e;
    }
    if (!instance.path("status").asString("").equals("Stopped")) {
      rest.call(project, "PUT", path(name) + "/state", Map.of("action", "stop", "timeout", -1, "force", true));
    }
    Map<String, String> cfg = new LinkedHashMap<>();
    snap.path("config").properties().forEach(e -> {
      if (!e.getKey().startsWith("volatile.")) {
        cfg.put(e.getKey(), e.getValue().asString());
      }
    });
    instance.path("config").properties().forEach(e -> {
      if (e.getKey().startsWith(Meta.PREFIX)) {
        cfg.put(e.getKey(), e.getValue().asString());
      }
    });
    byte[] suffix = new byte[5];
    random.nextBytes(suffix);
    String staged = "restore-" + base32(suffix);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", staged);
    body.put("type", instance.path("type").asString("container"));
    body.put("source", Map.of("type", "copy", "source", name + "/" + snapshot));
    body.put("architecture", snap.path("architecture").asString(instance.path("architecture").asString("")));
    body.put("config", cfg);
    body.put("devices", snap.path("devices"));
    body.put("profiles", snap.path("profiles"));
    body.put("ephemeral", snap.path("ephemeral").asBoolean(false));
    rest.call(project, "POST", "/1.0/instances", body);
    try {
      rest.call(project, "DELETE", path(name), null);
    } catch (BackendException e) {
      throw new BackendException(e.kind(), "remove original instance; snapshot copy retained as \"" + staged + "\": "
          + e.getMessage(), e);
    }
    try {
      rest.call(project, "POST", path(staged), Map.of("name", name));
      rest.call(project, "PUT", path(name) + "/state", Map.of("action", "start", "timeout", -1));
      awaitStatus(sandbox, name, true, Instant.now().plus(STATE_BUDGET));
    } catch (BackendException e) {
      throw new BackendException(e.kind(), "finish restore of \"" + name + "\" from staged copy \"" + staged + "\": "
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
    String project = Meta.project(sandbox.name());
    Instance instance = require(sandbox, name);
    if (!instance.status().equals("Stopped")) {
      throw Errors.of("instance \"%s\" must be stopped before publishing", name);
    }
    try {
      rest.get(project, "/1.0/images/aliases/" + IncusRest.encode(image));
      throw Errors.of("image \"%s\" already exists in sandbox \"%s\"", image, sandbox.name());
    } catch (BackendException e) {
      if (!e.isNotFound()) {
        throw e;
      }
    }
    JsonNode cfg = rest.get(project, path(name)).path("config");
    Map<String, String> properties = new LinkedHashMap<>();
    cfg.properties().forEach(e -> {
      if (e.getKey().startsWith("image.")) {
        properties.put(e.getKey().substring("image.".length()), e.getValue().asString());
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
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("public", false);
    body.put("properties", properties);
    body.put("aliases", List.of(Map.of("name", image)));
    body.put("source", Map.of("type", "instance", "name", name));
    rest.call(project, "POST", "/1.0/images", body);
  }

  // ---- NICs ------------------------------------------------------------------------------------

  Instance.Nic attachNic(Sandbox sandbox, String instanceName, String network, String nic, String ip, String mac) {
    String project = Meta.project(sandbox.name());
    IncusRest.Tagged current;
    try {
      current = rest.getTagged(project, path(instanceName));
    } catch (BackendException e) {
      throw e.isNotFound() ? Errors.instanceNotFound(instanceName, sandbox.name()) : e;
    }
    ObjectNode instance = (ObjectNode) current.value();
    ObjectNode devices = instance.has("devices") && instance.get("devices").isObject()
        ? (ObjectNode) instance.get("devices") : instance.putObject("devices");
    Set<String> taken = new HashSet<>();
    devices.properties().forEach(e -> {
      taken.add(e.getKey());
      if (e.getValue().has("name")) {
        taken.add(e.getValue().path("name").asString());
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
    String physical = backend.bridges().physicalName(sandbox.name(), network)
        .orElseThrow(() -> Errors.networkNotFound(network, sandbox.name()));
    ObjectNode device = devices.putObject(nicName);
    device.put("type", "nic");
    device.put("network", physical);
    device.put("name", nicName);
    if (ip != null && !ip.isEmpty()) {
      device.put("ipv4.address", ip);
    }
    if (mac != null && !mac.isEmpty()) {
      device.put("hwaddr", mac);
    }
    rest.call(project, "PUT", path(instanceName), instance, current.etag(), STATE_BUDGET);
    Instance after = require(sandbox, instanceName);
    final String chosen = nicName;
    return after.nics().stream().filter(n -> n.name().equals(chosen)).findFirst()
        .orElse(new Instance.Nic(chosen, network, mac == null ? "" : mac, List.of()));
  }

  void detachNic(Sandbox sandbox, String instanceName, String nic) {
    String project = Meta.project(sandbox.name());
    IncusRest.Tagged current;
    try {
      current = rest.getTagged(project, path(instanceName));
    } catch (BackendException e) {
      throw e.isNotFound() ? Errors.instanceNotFound(instanceName, sandbox.name()) : e;
    }
    ObjectNode instance = (ObjectNode) current.value();
    ObjectNode devices = (ObjectNode) instance.path("devices");
    String key = null;
    for (var entry : devices.properties()) {
      if ("nic".equals(entry.getValue().path("type").asString(""))
          && (entry.getKey().equals(nic) || nic.equals(entry.getValue().path("name").asString("")))) {
        key = entry.getKey();
      }
    }
    if (key == null) {
      throw Errors.nicNotFound(nic, instanceName, sandbox.name());
    }
    devices.remove(key);
    rest.call(project, "PUT", path(instanceName), instance, current.etag(), STATE_BUDGET);
  }
}
