package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.ComputeLimits;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.InstanceSnapshot;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.platform.SnapshotDriver;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stateless instance snapshots. A restore recreates the instance from the snapshot under a staged
 * name (which consumes the instance's other snapshots,
 * docs/reference/capabilities.md#snapshots-and-publishing).
 */
final class IncusSnapshotDriver implements SnapshotDriver {
  private final InstanceReader reader;
  private final SecureRandom random = new SecureRandom();

  IncusSnapshotDriver(InstanceReader reader) {
    this.reader = reader;
  }

  @Override
  public void create(Sandbox sandbox, String name, String snapshot) {
    SandboxInstance instance = reader.require(sandbox, name);
    if (instance.snapshots().contains(snapshot)) {
      throw exists(sandbox, name, snapshot);
    }
    try {
      reader.in(sandbox).snapshots().create(name, snapshot);
    } catch (IncusException e) {
      if (e instanceof IncusException.Conflict
          || String.valueOf(e.getMessage()).contains("UNIQUE constraint failed")) {
        throw exists(sandbox, name, snapshot);
      }
      throw e;
    }
  }

  private static RuntimeException exists(Sandbox sandbox, String name, String snapshot) {
    return Errors.of(
        "snapshot \"%s\" already exists on instance \"%s\" in sandbox \"%s\"",
        snapshot, name, sandbox.name());
  }

  @Override
  public List<InstanceSnapshot> list(Sandbox sandbox, String name) {
    reader.require(sandbox, name);
    List<InstanceSnapshot> result = new ArrayList<>();
    for (dev.agentcompute.incus.Snapshot snapshot : reader.in(sandbox).snapshots().list(name)) {
      result.add(
          new InstanceSnapshot(
              InstanceReader.shortName(snapshot.name()),
              snapshot.createdAt() == null ? Instant.EPOCH : snapshot.createdAt()));
    }
    return result;
  }

  @Override
  public void delete(Sandbox sandbox, String name, String snapshot) {
    reader.require(sandbox, name);
    try {
      reader.in(sandbox).snapshots().delete(name, snapshot);
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
  @Override
  public void restore(Sandbox sandbox, String name, String snapshot) {
    IncusClient project = reader.in(sandbox);
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
      throw IncusFailures.isNotFound(e)
          ? Errors.snapshotNotFound(snapshot, name, sandbox.name())
          : e;
    }
    if (!"Stopped".equals(instance.status())) {
      project.instances().changeState(name, "stop", -1, true).await();
    }
    Map<String, String> cfg = new LinkedHashMap<>();
    snap.config()
        .forEach(
            (key, value) -> {
              if (!key.startsWith("volatile.")) {
                cfg.put(key, value);
              }
            });
    instance
        .config()
        .forEach(
            (key, value) -> {
              if (key.startsWith(Meta.PREFIX)) {
                cfg.put(key, value);
              }
            });
    byte[] suffix = new byte[5];
    random.nextBytes(suffix);
    String staged = "restore-" + base32(suffix);
    String architecture =
        snap.architecture() == null || snap.architecture().isEmpty()
            ? instance.architecture()
            : snap.architecture();
    // Profiles and ephemerality never change after creation here, so the instance's equal the
    // snapshot's.
    project
        .instances()
        .create(
            new dev.agentcompute.incus.InstanceSpec(
                staged,
                instance.type() == null ? "container" : instance.type(),
                null,
                dev.agentcompute.incus.InstanceSpec.Source.copy(name + "/" + snapshot),
                instance.profiles(),
                cfg,
                snap.devices(),
                instance.ephemeral(),
                architecture,
                null));
    try {
      project.instances().delete(name);
    } catch (IncusException e) {
      throw new BackendException(
          IncusFailures.kindOf(e),
          "remove original instance; snapshot copy retained as \""
              + staged
              + "\": "
              + e.getMessage(),
          e);
    }
    try {
      project.instances().rename(staged, name);
      project.instances().changeState(name, "start", -1, false).await();
      IncusInstanceDriver.awaitStatus(
          project, name, true, Instant.now().plus(ComputeLimits.STATE_CHANGE_BUDGET));
    } catch (IncusException | BackendException e) {
      if (e instanceof IncusException.Cancelled cancelled) {
        throw cancelled;
      }
      BackendException.Kind kind =
          e instanceof IncusException incus
              ? IncusFailures.kindOf(incus)
              : ((BackendException) e).kind();
      throw new BackendException(
          kind,
          "finish restore of \""
              + name
              + "\" from staged copy \""
              + staged
              + "\": "
              + e.getMessage(),
          e);
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
}
