package dev.agentcompute.capabilities.compute;

import dev.agentcompute.capabilities.catalog.CatalogImage;
import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.catalog.ImageSource;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.net.Ipv4Cidr;
import dev.agentcompute.capabilities.net.AclRuleSpec;
import dev.agentcompute.capabilities.net.NetworkKind;
import dev.agentcompute.capabilities.net.OvnAddress;
import dev.agentcompute.capabilities.sandbox.Names;
import dev.agentcompute.capabilities.sandbox.SandboxGate;
import dev.agentcompute.capabilities.sandbox.SandboxNameGenerator;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * The compute service: validation in the original's order, the per-sandbox gate, TTL and pin policy,
 * liveness checks; everything stateful is delegated to the {@link ComputeBackend}. Long waits
 * (instance boot, exec, file IO) run outside the gate.
 */
public final class ComputeService {
  private final ComputeBackend backend;
  private final ComputeConfig config;
  private final ImageCatalog catalog;
  private final Clock clock;
  private final SandboxGate gate = new SandboxGate();
  private final SandboxNameGenerator names;

  public ComputeService(ComputeBackend backend, ComputeConfig config, ImageCatalog catalog, Clock clock,
      RandomGenerator random) {
    this.backend = backend;
    this.config = config;
    this.catalog = catalog;
    this.clock = clock;
    this.names = new SandboxNameGenerator(random);
  }

  public ComputeBackend backend() {
    return backend;
  }

  public ImageCatalog catalog() {
    return catalog;
  }

  public ComputeConfig config() {
    return config;
  }

  public SandboxGate gate() {
    return gate;
  }

  public Instant now() {
    return clock.instant();
  }

  // ---- sandboxes -------------------------------------------------------------------------------

  /** A new sandbox with its default network (empty for platforms without one). */
  public record Created(Sandbox sandbox, Optional<Network> network) {}

  public Created createSandbox(String subject, String name, String platform, long ttlMinutes, boolean pinned) {
    if (pinned && !mayPin(subject)) {
      throw Errors.pinningRequiresOperator();
    }
    Duration ttl = config.ttl().resolve(ttlMinutes);
    if (name != null && !name.isEmpty()) {
      Names.require(name);
    }
    String resolvedPlatform = platform == null || platform.isEmpty() ? "incus" : platform;
    if (resolvedPlatform.equals("mac")) {
      throw Errors.of("platform \"mac\" is not available yet");
    }
    if (name != null && !name.isEmpty()) {
      return createNamed(subject, name, ttl, pinned);
    }
    for (int attempt = 0; attempt < SandboxNameGenerator.ATTEMPTS; attempt++) {
      try {
        return createNamed(subject, names.next(), ttl, pinned);
      } catch (AgentFacingException e) {
        if (!e.getMessage().endsWith("\" already exists")) {
          throw e;
        }
      }
    }
    throw Errors.of("unable to allocate a sandbox name");
  }

  private Created createNamed(String subject, String name, Duration ttl, boolean pinned) {
    return gate.run(name, () -> {
      if (backend.getSandbox(name).isPresent()) {
        throw Errors.sandboxExists(name);
      }
      Instant now = now();
      Sandbox sandbox = new Sandbox(name, backend.platform(), now, now.plus(ttl), subject, false, "", null,
          config.defaultNetworkKind(), config.member());
      if (pinned) {
        sandbox = sandbox.pinnedBy(subject, now);
      }
      try {
        backend.createSandbox(sandbox);
      } catch (BackendException e) {
        if (e.kind() == BackendException.Kind.CONFLICT) {
          throw Errors.sandboxExists(name);
        }
        rollBack(name, e);
        throw e;
      } catch (RuntimeException e) {
        rollBack(name, e);
        throw e;
      }
      Optional<Network> network = backend.listNetworks(sandbox).stream()
          .filter(n -> n.name().equals(Names.DEFAULT)).findFirst();
      if (network.isEmpty()) {
        throw new BackendException(BackendException.Kind.FAILED, "sandbox " + name + " has no default network");
      }
      return new Created(sandbox, network);
    });
  }

  /** A creation that failed half-way leaves nothing behind (what was created is deleted again). */
  private void rollBack(String name, RuntimeException failure) {
    try {
      backend.deleteSandbox(name);
    } catch (RuntimeException cleanup) {
      failure.addSuppressed(cleanup);
    }
  }

  private boolean mayPin(String subject) {
    return subject != null && !subject.isEmpty() && config.pinIdentities().contains(subject);
  }

  public Sandbox requireSandbox(String name) {
    Names.require(name);
    return backend.getSandbox(name).orElseThrow(() -> Errors.sandboxNotFound(name));
  }

  private Sandbox requireLive(String name) {
    Sandbox sandbox = backend.getSandbox(name).orElseThrow(() -> Errors.sandboxNotFound(name));
    if (!sandbox.isLive(now())) {
      throw Errors.sandboxExpired(name);
    }
    return sandbox;
  }

  /** A listed sandbox with its instance count. */
  public record Listed(Sandbox sandbox, int instances) {}

  public List<Listed> listSandboxes() {
    List<Listed> result = new ArrayList<>();
    for (Sandbox sandbox : backend.listSandboxes()) {
      result.add(new Listed(sandbox, backend.listInstances(sandbox).size()));
    }
    return result;
  }

  /** One sandbox with its instances and networks. */
  public record Detail(Sandbox sandbox, List<Instance> instances, List<Network> networks) {}

  public Detail getSandbox(String name) {
    Sandbox sandbox = requireSandbox(name);
    return new Detail(sandbox, backend.listInstances(sandbox), backend.listNetworks(sandbox));
  }

  public Instant extend(String name, long ttlMinutes) {
    Duration ttl = config.ttl().resolve(ttlMinutes);
    Names.require(name);
    return gate.run(name, () -> {
      Sandbox sandbox = requireLive(name);
      Instant expires = now().plus(ttl);
      backend.writeSandbox(sandbox.withExpiresAt(expires));
      return expires;
    });
  }

  public Sandbox pin(String subject, String name, boolean pinned) {
    if (!mayPin(subject)) {
      throw Errors.pinningRequiresOperator();
    }
    Names.require(name);
    return gate.run(name, () -> {
      Sandbox sandbox = requireLive(name);
      if (sandbox.pinned() == pinned) {
        return sandbox;
      }
      Sandbox changed = pinned ? sandbox.pinnedBy(subject, now()) : sandbox.unpinned();
      backend.writeSandbox(changed);
      return changed;
    });
  }

  /** Expires and unpins first, so a partial failure is finished by the reaper. */
  public void deleteSandbox(String name) {
    Names.require(name);
    gate.run(name, () -> {
      Sandbox sandbox = backend.getSandbox(name).orElseThrow(() -> Errors.sandboxNotFound(name));
      backend.writeSandbox(sandbox.withExpiresAt(now()).unpinned());
      try {
        backend.deleteSandbox(name);
      } catch (BackendException e) {
        if (!e.isNotFound()) {
          throw e;
        }
      }
    });
  }

  /**
   * The reaper's deletion: under the gate the sandbox is read again, and only deleted when it is still
   * there, unpinned and expired. Returns what happened.
   */
  public ReapOutcome reap(String name) {
    return gate.run(name, () -> {
      Optional<Sandbox> current = backend.getSandbox(name);
      if (current.isEmpty()) {
        return ReapOutcome.GONE;
      }
      if (current.get().pinned()) {
        return ReapOutcome.PINNED;
      }
      if (current.get().isLive(now())) {
        return ReapOutcome.LIVE;
      }
      try {
        backend.deleteSandbox(name);
      } catch (BackendException e) {
        if (!e.isNotFound()) {
          throw e;
        }
      }
      return ReapOutcome.DELETED;
    });
  }

  /** What {@link #reap} found under the gate. */
  public enum ReapOutcome {
    DELETED,
    GONE,
    PINNED,
    LIVE
  }

  // ---- images ----------------------------------------------------------------------------------

  public List<CatalogImage> listImages(String os, Boolean desktop, String platform) {
    return catalog.filter(os, desktop, platform);
  }

  /** Catalogue names win; otherwise an image published in the sandbox. */
  public ResolvedImage resolveImage(String sandboxName, String image) {
    if (image == null || image.isEmpty()) {
      throw Errors.imageNotFound("");
    }
    Optional<CatalogImage> entry = catalog.find(image);
    if (entry.isPresent()) {
      CatalogImage c = entry.get();
      String alias = switch (c.source()) {
        case ImageSource.Alias a -> a.alias();
        case ImageSource.Reference r -> c.name();
        case ImageSource.Seed s -> s.seed();
      };
      return new ResolvedImage(c.name(), c.os(), c.version(), c.kind(), c.kinds(), c.platform(), c.desktop(), c.cpus(),
          c.memoryMb(), c.diskGb(), alias, "");
    }
    Sandbox sandbox = backend.getSandbox(sandboxName).orElseThrow(() -> Errors.sandboxNotFound(sandboxName));
    return backend.publishedImage(sandbox, image).orElseThrow(() -> Errors.imageNotFound(image));
  }

  // ---- instances -------------------------------------------------------------------------------

  /** Optional instance.create arguments; null means "use the image default". */
  public record CreateOptions(String kind, Integer cpus, Integer memoryMb, Integer diskGb, String network,
      String host, Boolean start) {}

  public Instance createInstance(String sandboxName, String name, String image, CreateOptions options) {
    ResolvedImage resolved = resolveImage(sandboxName, image);
    Names.require(sandboxName);
    Names.require(name);
    if (!resolved.platform().equals("incus") && !resolved.platform().equals("mac")) {
      throw Errors.of("image \"%s\" is not available on platform \"%s\"", image, resolved.platform());
    }
    String kind = options.kind() == null || options.kind().isEmpty() ? resolved.kind() : options.kind();
    InstanceSpec spec = new InstanceSpec(name, image, resolved, kind,
        options.cpus() == null ? resolved.cpus() : options.cpus(),
        options.memoryMb() == null ? resolved.memoryMb() : options.memoryMb(),
        options.diskGb() == null ? resolved.diskGb() : options.diskGb(),
        options.network() == null || options.network().isEmpty() ? Names.DEFAULT : options.network(),
        options.host() == null ? "" : options.host(),
        options.start() == null || options.start());
    ComputeBackend.PendingInstance pending = gate.run(sandboxName, () -> {
      Sandbox sandbox = requireLive(sandboxName);
      if (!sandbox.platform().equals(resolved.platform())) {
        throw Errors.of("image \"%s\" is not available on platform \"%s\"", image, sandbox.platform());
      }
      if (sandbox.networkKind() == NetworkKind.BRIDGE && !spec.host().isEmpty()
          && !spec.host().equals(sandbox.member())) {
        throw Errors.of("host \"%s\" is not sandbox member \"%s\"", spec.host(), sandbox.member());
      }
      if (!kind.equals("container") && !kind.equals("vm")) {
        throw Errors.of("kind \"%s\" is not available yet", kind);
      }
      if (!resolved.kinds().contains(kind)) {
        throw Errors.of("kind \"%s\" is not supported for image \"%s\"", kind, image);
      }
      if (!spec.network().equals(Names.NONE)) {
        Names.requireNetworkRef(spec.network());
      }
      if (backend.getInstance(sandbox, name).isPresent()) {
        throw Errors.instanceExists(name, sandboxName);
      }
      return backend.acceptInstance(sandbox, spec);
    });
    return backend.finishInstance(pending);
  }

  public List<Instance> listInstances(String sandboxName) {
    return backend.listInstances(requireSandbox(sandboxName));
  }

  public Instance getInstance(String sandboxName, String name) {
    Sandbox sandbox = requireSandbox(sandboxName);
    Names.require(name);
    return backend.getInstance(sandbox, name).orElseThrow(() -> Errors.instanceNotFound(name, sandboxName));
  }

  public void deleteInstance(String sandboxName, String name) {
    Names.require(sandboxName);
    Names.require(name);
    gate.run(sandboxName, () -> {
      Sandbox sandbox = backend.getSandbox(sandboxName).orElseThrow(() -> Errors.sandboxNotFound(sandboxName));
      if (backend.getInstance(sandbox, name).isEmpty()) {
        throw Errors.instanceNotFound(name, sandboxName);
      }
      backend.deleteInstance(sandbox, name);
    });
  }

  public String changeState(String sandboxName, String name, String action, boolean force) {
    Names.require(sandboxName);
    Names.require(name);
    return gate.run(sandboxName, () -> {
      Sandbox sandbox = requireLive(sandboxName);
      if (backend.getInstance(sandbox, name).isEmpty()) {
        throw Errors.instanceNotFound(name, sandboxName);
      }
      return backend.changeState(sandbox, name, action, force);
    });
  }

  /** Outcome of {@link #waitFor}. */
  public record Waited(String status, long elapsedSeconds) {}

  public Waited waitFor(String sandboxName, String name, String until, Duration timeout) {
    Sandbox sandbox = requireSandbox(sandboxName);
    Names.require(name);
    if (!List.of("running", "agent", "network", "stopped").contains(until)) {
      throw Errors.of("until \"%s\" is not available yet", until);
    }
    Instant started = now();
    while (true) {
      Instance instance = backend.getInstance(sandbox, name)
          .orElseThrow(() -> Errors.instanceNotFound(name, sandboxName));
      boolean reached = switch (until) {
        case "running", "agent" -> instance.isRunning();
        case "network" -> instance.isRunning()
            && instance.addresses().values().stream().anyMatch(list -> !list.isEmpty());
        default -> instance.status().equals("Stopped");
      };
      long elapsed = Duration.between(started, now()).toSeconds();
      if (reached) {
        return new Waited(instance.status(), elapsed);
      }
      if (instance.status().equals("Error") && instance.kind().equals("container")) {
        throw Errors.of("instance entered error state");
      }
      if (timeout != null && Duration.between(started, now()).compareTo(timeout) >= 0) {
        throw Errors.of("instance \"%s\" in sandbox \"%s\" did not become %s", name, sandboxName, until);
      }
      sleep(200);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.util.concurrent.CancellationException("context canceled");
    }
  }

  public ExecResult exec(String sandboxName, String name, ExecRequest request) {
    Sandbox sandbox = requireSandbox(sandboxName);
    Names.require(name);
    Instance instance = backend.getInstance(sandbox, name).orElseThrow(() -> Errors.instanceNotFound(name, sandboxName));
    if (request.cwd() != null && !request.cwd().isEmpty() && !isAbsolute(request.cwd())) {
      throw Errors.of("cwd must be an absolute path");
    }
    if (!instance.isRunning()) {
      throw Errors.instanceNotRunning(name, sandboxName);
    }
    return backend.exec(sandbox, name, request);
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
    Sandbox sandbox = requireSandbox(sandboxName);
    Names.require(name);
    if (!isAbsolute(path)) {
      throw Errors.of("path must be an absolute path");
    }
    int limit = maxBytes <= 0 ? 65_536 : (int) Math.min(maxBytes, 1_048_576);
    if (backend.getInstance(sandbox, name).isEmpty()) {
      throw Errors.instanceNotFound(name, sandboxName);
    }
    byte[] bytes = backend.readFile(sandbox, name, path, limit);
    return bytes.length > limit ? new FileRead(java.util.Arrays.copyOf(bytes, limit), true) : new FileRead(bytes, false);
  }

  public int writeFile(String sandboxName, String name, String path, byte[] content, String mode) {
    Sandbox sandbox = requireSandbox(sandboxName);
    Names.require(name);
    if (!isAbsolute(path)) {
      throw Errors.of("path must be an absolute path");
    }
    if (content.length > 65_536) {
      throw Errors.of("file content exceeds 65536 bytes; use instance.exec to transfer larger files");
    }
    Integer parsedMode = null;
    if (mode != null && !mode.isEmpty()) {
      try {
        long value = Long.parseLong(mode, 8);
        if (value > 0xFFFFFFFFL || value < 0) {
          throw new NumberFormatException();
        }
        parsedMode = (int) value;
      } catch (NumberFormatException e) {
        throw Errors.of("mode \"%s\" is not an octal file mode", mode);
      }
    }
    if (backend.getInstance(sandbox, name).isEmpty()) {
      throw Errors.instanceNotFound(name, sandboxName);
    }
    backend.writeFile(sandbox, name, path, content, parsedMode);
    return content.length;
  }

  public void snapshot(String op, String sandboxName, String name, String snapshot) {
    Names.require(sandboxName);
    Names.require(name);
    Names.require(snapshot);
    gate.run(sandboxName, () -> {
      Sandbox sandbox = requireLive(sandboxName);
      switch (op) {
        case "create" -> backend.createSnapshot(sandbox, name, snapshot);
        case "restore" -> backend.restoreSnapshot(sandbox, name, snapshot);
        case "delete" -> backend.deleteSnapshot(sandbox, name, snapshot);
        default -> throw new IllegalArgumentException(op);
      }
    });
  }

  public List<Snapshot> listSnapshots(String sandboxName, String name) {
    Sandbox sandbox = requireSandbox(sandboxName);
    Names.require(name);
    return backend.listSnapshots(sandbox, name);
  }

  public String publish(String sandboxName, String name, String image) {
    Names.require(sandboxName);
    Names.require(name);
    Names.require(image);
    if (catalog.find(image).isPresent()) {
      throw Errors.of("image \"%s\" is reserved by the catalog", image);
    }
    gate.run(sandboxName, () -> {
      Sandbox sandbox = requireLive(sandboxName);
      Instance instance = backend.getInstance(sandbox, name)
          .orElseThrow(() -> Errors.instanceNotFound(name, sandboxName));
      ResolvedImage origin = null;
      try {
        origin = resolveImage(sandboxName, instance.image());
      } catch (AgentFacingException e) {
        // The source image is gone; the published image gets the defaults.
      }
      backend.publish(sandbox, name, image, origin);
    });
    return image;
  }

  // ---- networks --------------------------------------------------------------------------------

  public Network createNetwork(String sandboxName, NetworkSpec spec) {
    Names.require(sandboxName);
    Names.require(spec.name());
    boolean hasCidr = spec.cidr() != null && !spec.cidr().isEmpty();
    if (hasCidr && (spec.kind() == NetworkKind.OVN ? OvnAddress.routerAddress(spec.cidr()).isEmpty()
        : Ipv4Cidr.parse(spec.cidr()).isEmpty())) {
      throw Errors.of("invalid cidr \"%s\"", spec.cidr());
    }
    return gate.run(sandboxName, () -> {
      Sandbox sandbox = requireLive(sandboxName);
      if (spec.kind() != sandbox.networkKind()) {
        throw Errors.of("cannot create a \"%s\" network in a \"%s\" sandbox", spec.kind().wireName(),
            sandbox.networkKind().wireName());
      }
      if (spec.kind() == NetworkKind.BRIDGE
          && backend.listNetworks(sandbox).stream().anyMatch(n -> n.name().equals(spec.name()))) {
        throw Errors.of("network \"%s\" already exists in sandbox \"%s\"", spec.name(), sandboxName);
      }
      return backend.createNetwork(sandbox, spec);
    });
  }

  public List<Network> listNetworks(String sandboxName) {
    return backend.listNetworks(requireSandbox(sandboxName));
  }

  public Network getNetwork(String sandboxName, String name) {
    Sandbox sandbox = requireSandbox(sandboxName);
    Names.requireNetworkRef(name);
    return backend.listNetworks(sandbox).stream().filter(n -> n.name().equals(name)).findFirst()
        .orElseThrow(() -> Errors.networkNotFound(name, sandboxName));
  }

  public void deleteNetwork(String sandboxName, String name) {
    Names.require(sandboxName);
    Names.require(name);
    gate.run(sandboxName, () -> {
      Sandbox sandbox = requireLive(sandboxName);
      backend.deleteNetwork(sandbox, name);
    });
  }

  public Instance.Nic attach(String sandboxName, String instance, String network, String nic, String ip, String mac) {
    Names.require(sandboxName);
    Names.require(instance);
    Names.requireNetworkRef(network);
    if (nic != null && !nic.isEmpty()) {
      Names.require(nic);
    }
    return gate.run(sandboxName, () -> {
      Sandbox sandbox = requireLive(sandboxName);
      if (backend.getInstance(sandbox, instance).isEmpty()) {
        throw Errors.instanceNotFound(instance, sandboxName);
      }
      return backend.attachNic(sandbox, instance, network, nic, ip, mac);
    });
  }

  public void detach(String sandboxName, String instance, String nic) {
    Names.require(sandboxName);
    Names.require(instance);
    Names.require(nic);
    gate.run(sandboxName, () -> {
      Sandbox sandbox = requireLive(sandboxName);
      backend.detachNic(sandbox, instance, nic);
    });
  }

  // ---- OVN fabric ------------------------------------------------------------------------------

  public void peer(String sandboxName, String network, String peer) {
    Names.require(sandboxName);
    Names.requireNetworkRef(network);
    Names.requireNetworkRef(peer);
    if (network.equals(peer)) {
      throw Errors.of("peer network must be different");
    }
    gate.run(sandboxName, () -> {
      Sandbox sandbox = requireLive(sandboxName);
      if (sandbox.networkKind() != NetworkKind.OVN) {
        throw Errors.of("network peering requires OVN networks");
      }
      requireNetwork(sandbox, network);
      requireNetwork(sandbox, peer);
      backend.peer(sandbox, network, peer);
    });
  }

  public String addAclRule(String sandboxName, String network, String direction, String action, String protocol,
      String source, String destination, String port) {
    Names.require(sandboxName);
    Names.requireNetworkRef(network);
    AclRuleSpec rule = AclRuleSpec.validated(direction, action, protocol, source, destination, port,
        config.protectedRanges());
    return gate.run(sandboxName, () -> {
      Sandbox sandbox = requireOvnLive(sandboxName, "network ACLs require OVN networks");
      requireNetwork(sandbox, network);
      return backend.addAclRule(sandbox, network, rule);
    });
  }

  public void removeAclRule(String sandboxName, String network, String rule) {
    Names.require(sandboxName);
    Names.requireNetworkRef(network);
    if (rule == null || rule.isEmpty()) {
      throw Errors.of("rule is required");
    }
    if (BASELINE_RULES.contains(rule)) {
      throw Errors.of("rule \"%s\" is a baseline ACL and cannot be removed", rule);
    }
    gate.run(sandboxName, () -> {
      Sandbox sandbox = requireOvnLive(sandboxName, "network ACLs require OVN networks");
      requireNetwork(sandbox, network);
      backend.removeAclRule(sandbox, network, rule);
    });
  }

  /** The rule ids of the baseline drops, which no call may remove. */
  public static final List<String> BASELINE_RULES = List.of("baseline-egress-mgmt", "baseline-egress-oob");

  public Forward forward(String sandboxName, String network, String instance, long port, Long listenPort,
      String protocol) {
    Names.require(sandboxName);
    Names.requireNetworkRef(network);
    Names.require(instance);
    if (port < 1 || port > 65535) {
      throw Errors.of("port must be between 1 and 65535");
    }
    long listen = listenPort == null ? port : listenPort;
    if (listen < 1 || listen > 65535) {
      throw Errors.of("listen_port must be between 1 and 65535");
    }
    String proto = protocol == null || protocol.isEmpty() ? "tcp" : protocol;
    if (!proto.equals("tcp") && !proto.equals("udp")) {
      throw Errors.of("protocol \"%s\" is not supported", proto);
    }
    return gate.run(sandboxName, () -> {
      Sandbox sandbox = requireOvnLive(sandboxName, "port forwards require an OVN network");
      requireNetwork(sandbox, network);
      return backend.forward(sandbox, network, instance, (int) port, (int) listen, proto);
    });
  }

  /** The rules and ports in effect for an OVN network (read-only: no gate, no liveness check). */
  public NetworkInspection inspect(String sandboxName, String network) {
    Sandbox sandbox = requireSandbox(sandboxName);
    Names.requireNetworkRef(network);
    if (sandbox.networkKind() != NetworkKind.OVN) {
      throw Errors.of("net.inspect requires OVN networks");
    }
    requireNetwork(sandbox, network);
    return backend.inspect(sandbox, network);
  }

  private Sandbox requireOvnLive(String sandboxName, String bridgeError) {
    Sandbox sandbox = requireLive(sandboxName);
    if (sandbox.networkKind() != NetworkKind.OVN) {
      throw Errors.of("%s", bridgeError);
    }
    return sandbox;
  }

  private Network requireNetwork(Sandbox sandbox, String name) {
    return backend.listNetworks(sandbox).stream().filter(n -> n.name().equals(name)).findFirst()
        .orElseThrow(() -> Errors.networkNotFound(name, sandbox.name()));
  }
}
