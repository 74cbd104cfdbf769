package dev.agentcompute.capabilities.platform;

import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * One kind of machine sandboxes run on ({@code incus}, later {@code mac}): the ports it implements.
 * What a platform leaves empty its sandboxes cannot do, and the services answer {@code unsupported
 * on platform <name>}.
 *
 * @param name what sandboxes of this platform report as their platform
 * @param readiness true when the platform answers and its prerequisites exist
 * @param files streamed files of any size (docs/capabilities.md#files); empty where the platform
 *     has no file API to stream through
 * @param processes background processes (docs/capabilities.md#background-processes); empty where
 *     the platform has no supervisor for them
 * @param features what the platform declares it does, which the services ask instead of its name
 */
public record Platform(
    String name,
    BooleanSupplier readiness,
    SandboxStore sandboxes,
    InstanceDriver instances,
    SnapshotDriver snapshots,
    Optional<ImageDriver> images,
    Optional<NetworkDriver> networks,
    Optional<OvnFabric> ovn,
    Optional<FileDriver> files,
    Optional<ProcessDriver> processes,
    Set<PlatformFeature> features) {

  public Platform {
    features = Set.copyOf(features);
  }

  /** A platform without background processes that declares no {@link PlatformFeature}. */
  public Platform(
      String name,
      BooleanSupplier readiness,
      SandboxStore sandboxes,
      InstanceDriver instances,
      SnapshotDriver snapshots,
      Optional<ImageDriver> images,
      Optional<NetworkDriver> networks,
      Optional<OvnFabric> ovn,
      Optional<FileDriver> files) {
    this(
        name,
        readiness,
        sandboxes,
        instances,
        snapshots,
        images,
        networks,
        ovn,
        files,
        Optional.empty(),
        Set.of());
  }

  /** A platform without streamed files (their capabilities refuse on it). */
  public Platform(
      String name,
      BooleanSupplier readiness,
      SandboxStore sandboxes,
      InstanceDriver instances,
      SnapshotDriver snapshots,
      Optional<ImageDriver> images,
      Optional<NetworkDriver> networks,
      Optional<OvnFabric> ovn) {
    this(name, readiness, sandboxes, instances, snapshots, images, networks, ovn, Optional.empty());
  }

  public boolean supports(PlatformFeature feature) {
    return features.contains(feature);
  }

  public boolean ready() {
    return readiness.getAsBoolean();
  }
}
