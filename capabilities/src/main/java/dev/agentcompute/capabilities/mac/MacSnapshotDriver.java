package dev.agentcompute.capabilities.mac;

import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.InstanceSnapshot;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.platform.SnapshotDriver;
import dev.agentcompute.lume.LumeVm;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Mac snapshots are stopped clones of the instance VM (Lume has no snapshots); restoring clones the
 * snapshot again, so the snapshot is kept (unlike Incus).
 */
final class MacSnapshotDriver implements SnapshotDriver {
  private static final int NAME_TRIES = 16;

  private final MacInstanceDriver instances;
  private final MacVms vms;

  MacSnapshotDriver(MacInstanceDriver instances, MacVms vms) {
    this.instances = instances;
    this.vms = vms;
  }

  @Override
  public void create(Sandbox sandbox, String instance, String snapshot) {
    Sidecar.Instance current = instances.require(sandbox, instance);
    if (current.recovery() != null) {
      throw Errors.of(
          "instance has an unfinished snapshot restore; delete the instance or sandbox to recover");
    }
    if (current.snapshots().containsKey(snapshot)) {
      throw Errors.of("snapshot \"%s\" already exists on instance \"%s\"", snapshot, instance);
    }
    boolean wasRunning = vms.get(current.vm()).map(LumeVm::running).orElse(false);
    vms.stop(current.vm());
    String vm = freeName(current.vm() + "-s-" + snapshot);
    MacFailures.run(() -> vms.api().cloneVm(current.vm(), vm));
    Map<String, Sidecar.Snapshot> snapshots = new TreeMap<>(current.snapshots());
    snapshots.put(snapshot, new Sidecar.Snapshot(vm, Sidecar.time(Instant.now())));
    instances.update(sandbox, instance, current.withSnapshots(snapshots));
    if (wasRunning) {
      restart(sandbox, instance);
    }
  }

  /** The instance's recorded snapshot of that name, or the spec's not-found text. */
  private static Sidecar.Snapshot snapshotOf(
      Sidecar.Instance current, String snapshot, Sandbox sandbox, String instance) {
    Sidecar.Snapshot snap = current.snapshots().get(snapshot);
    if (snap == null) {
      throw Errors.snapshotNotFound(snapshot, instance, sandbox.name());
    }
    return snap;
  }

  @Override
  public void restore(Sandbox sandbox, String instance, String snapshot) {
    Sidecar.Instance current = instances.require(sandbox, instance);
    Sidecar.Snapshot snap = snapshotOf(current, snapshot, sandbox, instance);
    if (snap.vm().equals(current.seed())) {
      throw Errors.of("refusing to restore snapshot \"%s\": protected seed mapping", snapshot);
    }
    boolean wasRunning = vms.get(current.vm()).map(LumeVm::running).orElse(false);
    String pending = freeName(snap.vm() + "-r");
    // The recovery record first: a crash midway leaves both names known, so nothing leaks.
    Sidecar.Instance recovering = current.withRecovery(new Sidecar.Recovery(current.vm(), pending));
    instances.update(sandbox, instance, recovering);
    MacFailures.run(() -> vms.api().cloneVm(snap.vm(), pending));
    vms.stop(current.vm());
    instances.update(sandbox, instance, recovering.withVm(pending));
    vms.delete(current.vm(), current.seed());
    instances.update(sandbox, instance, recovering.withVm(pending).withRecovery(null));
    if (wasRunning) {
      restart(sandbox, instance);
    }
  }

  @Override
  public void delete(Sandbox sandbox, String instance, String snapshot) {
    Sidecar.Instance current = instances.require(sandbox, instance);
    Sidecar.Snapshot snap = snapshotOf(current, snapshot, sandbox, instance);
    vms.delete(snap.vm(), current.seed());
    Map<String, Sidecar.Snapshot> snapshots = new TreeMap<>(current.snapshots());
    snapshots.remove(snapshot);
    instances.update(sandbox, instance, current.withSnapshots(snapshots));
  }

  @Override
  public List<InstanceSnapshot> list(Sandbox sandbox, String instance) {
    return instances.require(sandbox, instance).snapshots().entrySet().stream()
        .map(e -> new InstanceSnapshot(e.getKey(), Sidecar.parse(e.getValue().createdAt())))
        .toList();
  }

  private void restart(Sandbox sandbox, String instance) {
    instances.changeState(
        sandbox, instance, dev.agentcompute.capabilities.model.InstanceAction.START, false);
  }

  /** {@code base}, or {@code base-<8hex>} when that VM exists (up to 16 tries). */
  private String freeName(String base) {
    var existing = vms.inventoryNames();
    if (!existing.contains(base)) {
      return base;
    }
    for (int i = 0; i < NAME_TRIES; i++) {
      String name = base + "-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
      if (!existing.contains(name)) {
        return name;
      }
    }
    throw Errors.of("unable to allocate a snapshot vm name for \"%s\"", base);
  }

  static Optional<String> none() {
    return Optional.empty();
  }
}
