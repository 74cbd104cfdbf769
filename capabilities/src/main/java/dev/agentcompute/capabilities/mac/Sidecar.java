package dev.agentcompute.capabilities.mac;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.agentcompute.capabilities.model.Sandbox;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A Mac sandbox as its sidecar on the host stores it ({@code
 * ~/.agentcompute/sandboxes/<name>.json}, docs/reference/capabilities.md#macos-guests, version 1).
 * The sidecar is the only record of a Mac sandbox: expiry, pin state and which Lume VMs belong to
 * it, so a restarted server (or another one) finds exactly what was there.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
record Sidecar(
    int version,
    String name,
    String platform,
    String subject,
    String host,
    @JsonProperty("network_kind") String networkKind,
    @JsonProperty("created_at") String createdAt,
    @JsonProperty("expires_at") String expiresAt,
    Boolean pinned,
    @JsonProperty("pinned_by") String pinnedBy,
    @JsonProperty("pinned_at") String pinnedAt,
    Map<String, Instance> instances)
    implements Sandbox.Stored {

  static final int VERSION = 1;

  Sidecar {
    instances = instances == null ? new TreeMap<>() : new TreeMap<>(instances);
  }

  /** One instance: the Lume VM that is it now, and the VMs its snapshots are. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Instance(
      String vm,
      String image,
      String seed,
      boolean desktop,
      int cpus,
      @JsonProperty("memory_mb") int memoryMb,
      @JsonProperty("disk_gb") int diskGb,
      boolean prepared,
      Map<String, Snapshot> snapshots,
      Recovery recovery) {
    Instance {
      snapshots = snapshots == null ? new TreeMap<>() : new TreeMap<>(snapshots);
    }

    Instance withVm(String newVm) {
      return new Instance(
          newVm, image, seed, desktop, cpus, memoryMb, diskGb, prepared, snapshots, recovery);
    }

    Instance withPrepared(boolean value) {
      return new Instance(
          vm, image, seed, desktop, cpus, memoryMb, diskGb, value, snapshots, recovery);
    }

    Instance withSnapshots(Map<String, Snapshot> value) {
      return new Instance(
          vm, image, seed, desktop, cpus, memoryMb, diskGb, prepared, value, recovery);
    }

    Instance withRecovery(Recovery value) {
      return new Instance(
          vm, image, seed, desktop, cpus, memoryMb, diskGb, prepared, snapshots, value);
    }
  }

  @JsonIgnoreProperties(ignoreUnknown = true)
  record Snapshot(String vm, @JsonProperty("created_at") String createdAt) {}

  /** A restore in progress: the VM being replaced and the one replacing it. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Recovery(
      @JsonProperty("previous_vm") String previousVm,
      @JsonProperty("pending_vm") String pendingVm) {}

  static Sidecar of(Sandbox s, String host, Map<String, Instance> instances) {
    return new Sidecar(
        VERSION,
        s.name(),
        MacPlatform.NAME,
        s.subject(),
        host,
        "",
        time(s.createdAt()),
        time(s.expiresAt()),
        s.pinned() ? Boolean.TRUE : null,
        s.pinned() ? s.pinnedBy() : null,
        s.pinned() && s.pinnedAt() != null ? time(s.pinnedAt()) : null,
        instances);
  }

  Sidecar withSandbox(Sandbox s) {
    return of(s, host, instances);
  }

  Sidecar withInstances(Map<String, Instance> value) {
    return new Sidecar(
        version,
        name,
        platform,
        subject,
        host,
        networkKind,
        createdAt,
        expiresAt,
        pinned,
        pinnedBy,
        pinnedAt,
        value);
  }

  /**
   * A corrupt or missing expiry parses as the epoch, so the reaper removes it
   * (docs/reference/capabilities.md#reaper).
   */
  Sandbox sandbox() {
    boolean isPinned = Boolean.TRUE.equals(pinned);
    return new Sandbox(
        name,
        MacPlatform.NAME,
        parse(createdAt),
        parse(expiresAt),
        subject == null ? "" : subject,
        isPinned,
        isPinned && pinnedBy != null ? pinnedBy : "",
        isPinned ? parse(pinnedAt) : null,
        null,
        "",
        // Carried down the call, so the instance driver does not read the sidecar again.
        Optional.of(this));
  }

  static String time(Instant t) {
    return DateTimeFormatter.ISO_INSTANT.format(t.truncatedTo(ChronoUnit.SECONDS));
  }

  static Instant parse(String text) {
    try {
      return text == null ? Instant.EPOCH : Instant.parse(text);
    } catch (RuntimeException e) {
      return Instant.EPOCH;
    }
  }
}
