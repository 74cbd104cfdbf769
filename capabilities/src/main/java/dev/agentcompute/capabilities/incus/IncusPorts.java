package dev.agentcompute.capabilities.incus;

import static dev.agentcompute.capabilities.incus.IncusFailures.translated;

import dev.agentcompute.capabilities.catalog.CatalogImage;
import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.model.AclRuleSpec;
import dev.agentcompute.capabilities.model.CommandStream;
import dev.agentcompute.capabilities.model.ExecRequest;
import dev.agentcompute.capabilities.model.ExecResult;
import dev.agentcompute.capabilities.model.FileInfo;
import dev.agentcompute.capabilities.model.ForwardProtocol;
import dev.agentcompute.capabilities.model.InstanceAction;
import dev.agentcompute.capabilities.model.InstancePlan;
import dev.agentcompute.capabilities.model.InstanceSnapshot;
import dev.agentcompute.capabilities.model.NetworkInspection;
import dev.agentcompute.capabilities.model.NetworkPlan;
import dev.agentcompute.capabilities.model.NicSettings;
import dev.agentcompute.capabilities.model.PortForward;
import dev.agentcompute.capabilities.model.ProcessInfo;
import dev.agentcompute.capabilities.model.ProcessStart;
import dev.agentcompute.capabilities.model.ResolvedImage;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.model.SandboxNetwork;
import dev.agentcompute.capabilities.platform.FileDriver;
import dev.agentcompute.capabilities.platform.ImageDriver;
import dev.agentcompute.capabilities.platform.InstanceDriver;
import dev.agentcompute.capabilities.platform.NetworkDriver;
import dev.agentcompute.capabilities.platform.OvnFabric;
import dev.agentcompute.capabilities.platform.ProcessDriver;
import dev.agentcompute.capabilities.platform.ReaperLease;
import dev.agentcompute.capabilities.platform.SandboxStore;
import dev.agentcompute.capabilities.platform.SnapshotDriver;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.UnaryOperator;

/**
 * The Incus platform's ports as the services see them: each method forwards to the driver and
 * translates incus-client's failures once, by type ({@link IncusFailures#translate}). Written by
 * hand, one forwarder per port method (defaults included, since a driver may override them);
 * IncusPortsTest fails when a port method is not forwarded here.
 */
final class IncusPorts {
  private IncusPorts() {}

  static final class Sandboxes implements SandboxStore {
    private final SandboxStore target;

    Sandboxes(SandboxStore target) {
      this.target = target;
    }

    @Override
    public Optional<Sandbox> find(String name) {
      return translated(() -> target.find(name));
    }

    @Override
    public List<Sandbox> list() {
      return translated(target::list);
    }

    @Override
    public void create(Sandbox sandbox) {
      translated(() -> target.create(sandbox));
    }

    @Override
    public void write(Sandbox sandbox) {
      translated(() -> target.write(sandbox));
    }

    @Override
    public Optional<Sandbox> update(String name, UnaryOperator<Sandbox> change) {
      return translated(() -> target.update(name, change));
    }

    @Override
    public void delete(String name) {
      translated(() -> target.delete(name));
    }

    @Override
    public boolean retire(String name) {
      return translated(() -> target.retire(name));
    }

    @Override
    public List<String> deleting(Instant before) {
      return translated(() -> target.deleting(before));
    }

    @Override
    public boolean isDeleting(String name) {
      return translated(() -> target.isDeleting(name));
    }
  }

  static final class Instances implements InstanceDriver {
    private final InstanceDriver target;

    Instances(InstanceDriver target) {
      this.target = target;
    }

    @Override
    public List<SandboxInstance> list(Sandbox sandbox) {
      return translated(() -> target.list(sandbox));
    }

    @Override
    public int count(Sandbox sandbox) {
      return translated(() -> target.count(sandbox));
    }

    @Override
    public Optional<SandboxInstance> find(Sandbox sandbox, String name) {
      return translated(() -> target.find(sandbox, name));
    }

    @Override
    public Optional<SandboxInstance> findBrief(Sandbox sandbox, String name) {
      return translated(() -> target.findBrief(sandbox, name));
    }

    @Override
    public Map<String, Integer> count(List<Sandbox> sandboxes) {
      return translated(() -> target.count(sandboxes));
    }

    @Override
    public PendingInstance accept(Sandbox sandbox, InstancePlan plan) {
      return translated(() -> target.accept(sandbox, plan));
    }

    @Override
    public SandboxInstance finish(PendingInstance pending) {
      return translated(() -> target.finish(pending));
    }

    @Override
    public void delete(Sandbox sandbox, String name) {
      translated(() -> target.delete(sandbox, name));
    }

    @Override
    public String changeState(Sandbox sandbox, String name, InstanceAction action, boolean force) {
      return translated(() -> target.changeState(sandbox, name, action, force));
    }

    @Override
    public ExecResult exec(Sandbox sandbox, String name, ExecRequest request) {
      return translated(() -> target.exec(sandbox, name, request));
    }

    @Override
    public byte[] readFile(Sandbox sandbox, String name, String path, int limit) {
      return translated(() -> target.readFile(sandbox, name, path, limit));
    }

    @Override
    public void writeFile(Sandbox sandbox, String name, String path, byte[] content, Integer mode) {
      translated(() -> target.writeFile(sandbox, name, path, content, mode));
    }

    @Override
    public CommandStream openStream(Sandbox sandbox, String name, ExecRequest request) {
      return translated(() -> target.openStream(sandbox, name, request));
    }

    @Override
    public Optional<byte[]> readFileIfPresent(
        Sandbox sandbox, String name, String path, int limit) {
      return translated(() -> target.readFileIfPresent(sandbox, name, path, limit));
    }

    @Override
    public void deleteFile(Sandbox sandbox, String name, String path) {
      translated(() -> target.deleteFile(sandbox, name, path));
    }

    @Override
    public String cuaDriverPath() {
      return target.cuaDriverPath();
    }

    @Override
    public String macGuestHome() {
      return target.macGuestHome();
    }
  }

  static final class Snapshots implements SnapshotDriver {
    private final SnapshotDriver target;

    Snapshots(SnapshotDriver target) {
      this.target = target;
    }

    @Override
    public void create(Sandbox sandbox, String instance, String snapshot) {
      translated(() -> target.create(sandbox, instance, snapshot));
    }

    @Override
    public void restore(Sandbox sandbox, String instance, String snapshot) {
      translated(() -> target.restore(sandbox, instance, snapshot));
    }

    @Override
    public void delete(Sandbox sandbox, String instance, String snapshot) {
      translated(() -> target.delete(sandbox, instance, snapshot));
    }

    @Override
    public List<InstanceSnapshot> list(Sandbox sandbox, String instance) {
      return translated(() -> target.list(sandbox, instance));
    }
  }

  static final class Images implements ImageDriver {
    private final ImageDriver target;

    Images(ImageDriver target) {
      this.target = target;
    }

    @Override
    public void reconcile(ImageCatalog catalog) {
      translated(() -> target.reconcile(catalog));
    }

    @Override
    public Optional<Long> sizeBytes(CatalogImage image) {
      return translated(() -> target.sizeBytes(image));
    }

    @Override
    public Optional<ResolvedImage> published(Sandbox sandbox, String name) {
      return translated(() -> target.published(sandbox, name));
    }

    @Override
    public void publish(Sandbox sandbox, String instance, String image, ResolvedImage origin) {
      translated(() -> target.publish(sandbox, instance, image, origin));
    }
  }

  static final class Networks implements NetworkDriver {
    private final NetworkDriver target;

    Networks(NetworkDriver target) {
      this.target = target;
    }

    @Override
    public List<SandboxNetwork> list(Sandbox sandbox) {
      return translated(() -> target.list(sandbox));
    }

    @Override
    public SandboxNetwork create(Sandbox sandbox, NetworkPlan plan) {
      return translated(() -> target.create(sandbox, plan));
    }

    @Override
    public void delete(Sandbox sandbox, String name) {
      translated(() -> target.delete(sandbox, name));
    }

    @Override
    public SandboxInstance.Nic attach(
        Sandbox sandbox, String instance, String network, String nic, String ip, String mac) {
      return translated(() -> target.attach(sandbox, instance, network, nic, ip, mac));
    }

    @Override
    public void detach(Sandbox sandbox, String instance, String nic) {
      translated(() -> target.detach(sandbox, instance, nic));
    }

    @Override
    public Optional<NicSettings> settings(Sandbox sandbox, String network) {
      return translated(() -> target.settings(sandbox, network));
    }
  }

  static final class Fabric implements OvnFabric {
    private final OvnFabric target;

    Fabric(OvnFabric target) {
      this.target = target;
    }

    @Override
    public void peer(Sandbox sandbox, String network, String peer) {
      translated(() -> target.peer(sandbox, network, peer));
    }

    @Override
    public String addAclRule(Sandbox sandbox, String network, AclRuleSpec rule) {
      return translated(() -> target.addAclRule(sandbox, network, rule));
    }

    @Override
    public void removeAclRule(Sandbox sandbox, String network, String rule) {
      translated(() -> target.removeAclRule(sandbox, network, rule));
    }

    @Override
    public PortForward forward(
        Sandbox sandbox,
        String network,
        String instance,
        int port,
        int listenPort,
        ForwardProtocol protocol) {
      return translated(
          () -> target.forward(sandbox, network, instance, port, listenPort, protocol));
    }

    @Override
    public NetworkInspection inspect(Sandbox sandbox, String network) {
      return translated(() -> target.inspect(sandbox, network));
    }

    @Override
    public Optional<String> forwardTo(Sandbox sandbox, SandboxInstance instance, int port) {
      return translated(() -> target.forwardTo(sandbox, instance, port));
    }

    @Override
    public int forwardedPorts(Sandbox sandbox) {
      return translated(() -> target.forwardedPorts(sandbox));
    }
  }

  static final class Files implements FileDriver {
    private final FileDriver target;

    Files(FileDriver target) {
      this.target = target;
    }

    @Override
    public FileInfo stat(Sandbox sandbox, String instance, String path) {
      return translated(() -> target.stat(sandbox, instance, path));
    }

    @Override
    public List<String> list(Sandbox sandbox, String instance, String directory) {
      return translated(() -> target.list(sandbox, instance, directory));
    }

    @Override
    public <T> T download(
        Sandbox sandbox,
        String instance,
        String path,
        long offset,
        long length,
        Duration timeout,
        Body<T> body) {
      return translated(
          () -> target.download(sandbox, instance, path, offset, length, timeout, body));
    }

    @Override
    public void upload(
        Sandbox sandbox,
        String instance,
        String path,
        InputStream content,
        long length,
        Integer mode,
        Duration timeout) {
      translated(() -> target.upload(sandbox, instance, path, content, length, mode, timeout));
    }
  }

  static final class Lease implements ReaperLease {
    private final ReaperLease target;

    Lease(ReaperLease target) {
      this.target = target;
    }

    @Override
    public boolean acquire(String holder, Instant now, Duration period) {
      return translated(() -> target.acquire(holder, now, period));
    }

    @Override
    public void release(String holder) {
      translated(() -> target.release(holder));
    }
  }

  static final class Processes implements ProcessDriver {
    private final ProcessDriver target;

    Processes(ProcessDriver target) {
      this.target = target;
    }

    @Override
    public OptionalInt start(Sandbox sandbox, String instance, ProcessStart start) {
      return translated(() -> target.start(sandbox, instance, start));
    }

    @Override
    public List<ProcessInfo> list(Sandbox sandbox, String instance) {
      return translated(() -> target.list(sandbox, instance));
    }

    @Override
    public Optional<ProcessInfo> find(Sandbox sandbox, String instance, String id) {
      return translated(() -> target.find(sandbox, instance, id));
    }

    @Override
    public Optional<Chunk> read(
        Sandbox sandbox,
        String instance,
        String id,
        long stdoutOffset,
        long stderrOffset,
        int maxBytes) {
      return translated(
          () -> target.read(sandbox, instance, id, stdoutOffset, stderrOffset, maxBytes));
    }

    @Override
    public Signalled signal(Sandbox sandbox, String instance, String id, String signal) {
      return translated(() -> target.signal(sandbox, instance, id, signal));
    }
  }
}
