package dev.agentcompute.capabilities.config;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * What one instance, one sandbox and one identity may take, so that no agent can exhaust the host
 * or starve another. Every refusal names the configuration key and its value. The defaults suit a
 * small host (a few cores, 16-32 GiB).
 *
 * @param maxCpus {@code instance.max_cpus}: most {@code limits.cpu} an instance may ask for
 * @param maxMemoryMb {@code instance.max_memory_mb}: most memory an instance may ask for
 * @param maxDiskGb {@code instance.max_disk_gb}: largest root disk an instance may ask for
 * @param processes {@code instance.processes}: {@code limits.processes} of every container (a fork
 *     bomb stops there, far below the host's pid_max)
 * @param sandboxesPerIdentity {@code sandbox.max_per_identity}: live sandboxes one identity owns
 * @param maxLifetime {@code sandbox.max_lifetime_minutes}: how far past its creation a sandbox can
 *     be extended
 * @param sandboxInstances {@code sandbox.limits.instances}: instances in one sandbox
 * @param sandboxCpus {@code sandbox.limits.cpus}: CPUs of all of one sandbox's instances together
 * @param sandboxMemoryMb {@code sandbox.limits.memory_mb}: their memory together
 * @param sandboxNetworks {@code sandbox.limits.networks}: networks of one sandbox (its default
 *     included)
 * @param sandboxDiskGb {@code sandbox.limits.disk_gb}: the project's {@code limits.disk}, root
 *     disks and images of one sandbox together
 * @param sandboxProcesses {@code sandbox.limits.processes}: the project's {@code limits.processes},
 *     or 0 when unset (the default: Incus then requires {@code limits.processes} on every instance,
 *     and VMs refuse that key, so a set value means a sandbox of containers only)
 * @param identity {@code sandbox.identity_limits.*}: what one identity holds across its sandboxes
 * @param background {@code instance.background_processes} and {@code
 *     instance.background_output_mb}: background processes per instance and their output
 */
public record Quotas(
    int maxCpus,
    int maxMemoryMb,
    int maxDiskGb,
    int processes,
    int sandboxesPerIdentity,
    Duration maxLifetime,
    int sandboxInstances,
    int sandboxCpus,
    int sandboxMemoryMb,
    int sandboxNetworks,
    int sandboxDiskGb,
    int sandboxProcesses,
    IdentityLimits identity,
    ProcessLimits background) {

  /** With the default background process limits. */
  public Quotas(
      int maxCpus,
      int maxMemoryMb,
      int maxDiskGb,
      int processes,
      int sandboxesPerIdentity,
      Duration maxLifetime,
      int sandboxInstances,
      int sandboxCpus,
      int sandboxMemoryMb,
      int sandboxNetworks,
      int sandboxDiskGb,
      int sandboxProcesses,
      IdentityLimits identity) {
    this(
        maxCpus,
        maxMemoryMb,
        maxDiskGb,
        processes,
        sandboxesPerIdentity,
        maxLifetime,
        sandboxInstances,
        sandboxCpus,
        sandboxMemoryMb,
        sandboxNetworks,
        sandboxDiskGb,
        sandboxProcesses,
        identity,
        ProcessLimits.defaults());
  }

  public Quotas {
    positive(maxCpus, "instance.max_cpus");
    positive(maxMemoryMb, "instance.max_memory_mb");
    positive(maxDiskGb, "instance.max_disk_gb");
    positive(processes, "instance.processes");
    positive(sandboxesPerIdentity, "sandbox.max_per_identity");
    positive(sandboxInstances, "sandbox.limits.instances");
    positive(sandboxCpus, "sandbox.limits.cpus");
    positive(sandboxMemoryMb, "sandbox.limits.memory_mb");
    positive(sandboxNetworks, "sandbox.limits.networks");
    positive(sandboxDiskGb, "sandbox.limits.disk_gb");
    if (sandboxProcesses < 0) {
      throw new IllegalArgumentException(
          "sandbox.limits.processes must be positive when set, got " + sandboxProcesses);
    }
    java.util.Objects.requireNonNull(identity, "sandbox.identity_limits");
    java.util.Objects.requireNonNull(background, "instance.background_*");
    if (maxLifetime.isNegative() || maxLifetime.isZero()) {
      throw new IllegalArgumentException("sandbox.max_lifetime_minutes must be positive");
    }
  }

  private static void positive(long value, String key) {
    if (value <= 0) {
      throw new IllegalArgumentException(key + " must be positive, got " + value);
    }
  }

  /**
   * 4 CPUs, 8 GiB, a 128 GiB disk (macOS guests need about 100) and 1,000 processes per instance;
   * 10 live sandboxes per identity, each extended to 3 days at most, with 8 instances, 8 CPUs, 16
   * GiB, 4 networks and 256 GiB of disk (no project process limit); {@link
   * IdentityLimits#defaults()} per identity.
   */
  public static Quotas defaults() {
    return new Quotas(
        4,
        8192,
        128,
        1000,
        10,
        Duration.ofDays(3),
        8,
        8,
        16384,
        4,
        256,
        0,
        IdentityLimits.defaults());
  }

  public Quotas withProcesses(int value) {
    return with(c -> c.processes = value);
  }

  public Quotas withSandboxesPerIdentity(int value) {
    return with(c -> c.sandboxesPerIdentity = value);
  }

  public Quotas withIdentityLimits(IdentityLimits value) {
    return with(c -> c.identity = value);
  }

  public Quotas withSandboxProcesses(int value) {
    return with(c -> c.sandboxProcesses = value);
  }

  /** Background processes per instance and the output each stream keeps. */
  public Quotas withBackground(ProcessLimits value) {
    return with(c -> c.background = value);
  }

  /**
   * A copy with one change: every wither goes through here, so the field list lives in one place
   * (and the canonical constructor checks the result).
   */
  private Quotas with(Consumer<Copy> change) {
    Copy copy = new Copy(this);
    change.accept(copy);
    return copy.build();
  }

  /**
   * The mutable copy {@link #with} changes; its constructor and {@link #build} list every field
   * once.
   */
  private static final class Copy {
    int maxCpus;
    int maxMemoryMb;
    int maxDiskGb;
    int processes;
    int sandboxesPerIdentity;
    Duration maxLifetime;
    int sandboxInstances;
    int sandboxCpus;
    int sandboxMemoryMb;
    int sandboxNetworks;
    int sandboxDiskGb;
    int sandboxProcesses;
    IdentityLimits identity;
    ProcessLimits background;

    Copy(Quotas q) {
      maxCpus = q.maxCpus;
      maxMemoryMb = q.maxMemoryMb;
      maxDiskGb = q.maxDiskGb;
      processes = q.processes;
      sandboxesPerIdentity = q.sandboxesPerIdentity;
      maxLifetime = q.maxLifetime;
      sandboxInstances = q.sandboxInstances;
      sandboxCpus = q.sandboxCpus;
      sandboxMemoryMb = q.sandboxMemoryMb;
      sandboxNetworks = q.sandboxNetworks;
      sandboxDiskGb = q.sandboxDiskGb;
      sandboxProcesses = q.sandboxProcesses;
      identity = q.identity;
      background = q.background;
    }

    Quotas build() {
      return new Quotas(
          maxCpus,
          maxMemoryMb,
          maxDiskGb,
          processes,
          sandboxesPerIdentity,
          maxLifetime,
          sandboxInstances,
          sandboxCpus,
          sandboxMemoryMb,
          sandboxNetworks,
          sandboxDiskGb,
          sandboxProcesses,
          identity,
          background);
    }
  }
}
