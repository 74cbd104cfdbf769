package dev.agentcompute.server.config;

import dev.agentcompute.capabilities.config.IdentityLimits;
import dev.agentcompute.capabilities.config.ProcessLimits;
import dev.agentcompute.capabilities.config.Quotas;
import dev.agentcompute.capabilities.model.ComputeLimits;
import dev.agentcompute.capabilities.screenshots.ScreenshotStore;
import java.time.Duration;
import java.util.List;

/**
 * Validates the quotas (ours; docs/configuration.md): {@code instance.*} maxima and processes, and
 * {@code sandbox.max_per_identity}, {@code sandbox.max_lifetime_minutes}, {@code sandbox.limits.*}
 * and {@code sandbox.identity_limits.*}. Absent keys take {@link Quotas#defaults()}; each bad value
 * is named with its key.
 */
final class QuotaSettings {
  private QuotaSettings() {}

  static Quotas load(RuntimeConfig raw, Duration maxTtl, List<String> problems) {
    Quotas d = Quotas.defaults();
    RuntimeConfig.Instance instance =
        raw.instance() == null
            ? new RuntimeConfig.Instance(null, null, null, null)
            : raw.instance();
    RuntimeConfig.Sandbox sandbox = raw.sandbox();
    RuntimeConfig.SandboxLimits limits =
        sandbox == null || sandbox.limits() == null
            ? new RuntimeConfig.SandboxLimits(null, null, null, null, null, null)
            : sandbox.limits();
    RuntimeConfig.IdentityLimits identity =
        sandbox == null || sandbox.identityLimits() == null
            ? new RuntimeConfig.IdentityLimits(null, null, null, null)
            : sandbox.identityLimits();
    int maxCpus =
        within(
            "instance.max_cpus", instance.maxCpus(), d.maxCpus(), ComputeLimits.CPUS_MAX, problems);
    int maxMemory =
        within(
            "instance.max_memory_mb",
            instance.maxMemoryMb(),
            d.maxMemoryMb(),
            ComputeLimits.MEMORY_MB_MAX,
            problems);
    int maxDisk =
        within(
            "instance.max_disk_gb",
            instance.maxDiskGb(),
            d.maxDiskGb(),
            ComputeLimits.DISK_GB_MAX,
            problems);
    int processes =
        within("instance.processes", instance.processes(), d.processes(), 4_194_304, problems);
    int perIdentity =
        within(
            "sandbox.max_per_identity",
            sandbox == null ? null : sandbox.maxPerIdentity(),
            d.sandboxesPerIdentity(),
            100_000,
            problems);
    long lifetimeMinutes =
        within(
            "sandbox.max_lifetime_minutes",
            sandbox == null ? null : sandbox.maxLifetimeMinutes(),
            (int) d.maxLifetime().toMinutes(),
            Integer.MAX_VALUE,
            problems);
    Duration lifetime = Duration.ofMinutes(lifetimeMinutes);
    if (lifetime.compareTo(maxTtl) < 0) {
      problems.add(
          "sandbox.max_lifetime_minutes ("
              + lifetimeMinutes
              + ") must be at least sandbox.max_ttl_minutes ("
              + maxTtl.toMinutes()
              + ")");
    }
    int instances =
        within(
            "sandbox.limits.instances", limits.instances(), d.sandboxInstances(), 10_000, problems);
    int cpus =
        within(
            "sandbox.limits.cpus",
            limits.cpus(),
            d.sandboxCpus(),
            (int) ComputeLimits.CPUS_MAX * 64,
            problems);
    int memory =
        within(
            "sandbox.limits.memory_mb",
            limits.memoryMb(),
            d.sandboxMemoryMb(),
            Integer.MAX_VALUE,
            problems);
    int networks =
        within("sandbox.limits.networks", limits.networks(), d.sandboxNetworks(), 1_000, problems);
    int disk =
        within(
            "sandbox.limits.disk_gb",
            limits.diskGb(),
            d.sandboxDiskGb(),
            ComputeLimits.DISK_GB_MAX * 64,
            problems);
    // Off unless set: with it, Incus requires limits.processes on every instance and VMs refuse it.
    int projectProcesses =
        limits.processes() == null
            ? 0
            : within("sandbox.limits.processes", limits.processes(), 0, 4_194_304, problems);
    IdentityLimits di = d.identity();
    IdentityLimits identityLimits =
        new IdentityLimits(
            within(
                "sandbox.identity_limits.instances",
                identity.instances(),
                di.instances(),
                100_000,
                problems),
            within(
                "sandbox.identity_limits.networks",
                identity.networks(),
                di.networks(),
                100_000,
                problems),
            within(
                "sandbox.identity_limits.forwards",
                identity.forwards(),
                di.forwards(),
                100_000,
                problems),
            within(
                    "sandbox.identity_limits.screenshot_mb",
                    identity.screenshotMb(),
                    (int) (di.screenshotBytes() / IdentityLimits.MIB),
                    ScreenshotStore.MAX_TOTAL_BYTES / IdentityLimits.MIB,
                    problems)
                * IdentityLimits.MIB);
    if (disk < maxDisk) {
      problems.add(
          "sandbox.limits.disk_gb ("
              + disk
              + ") must be at least instance.max_disk_gb ("
              + maxDisk
              + ")");
    }
    if (projectProcesses > 0 && projectProcesses < processes) {
      problems.add(
          "sandbox.limits.processes ("
              + projectProcesses
              + ") must be at least instance.processes ("
              + processes
              + ")");
    }
    if (cpus < maxCpus) {
      problems.add(
          "sandbox.limits.cpus ("
              + cpus
              + ") must be at least instance.max_cpus ("
              + maxCpus
              + ")");
    }
    if (memory < maxMemory) {
      problems.add(
          "sandbox.limits.memory_mb ("
              + memory
              + ") must be at least instance.max_memory_mb ("
              + maxMemory
              + ")");
    }
    return new Quotas(
        maxCpus,
        maxMemory,
        maxDisk,
        processes,
        perIdentity,
        lifetime,
        instances,
        cpus,
        memory,
        networks,
        disk,
        projectProcesses,
        identityLimits,
        new ProcessLimits(
            within(
                "instance.background_processes",
                instance.backgroundProcesses(),
                d.background().perInstance(),
                ProcessLimits.PER_INSTANCE_MAX,
                problems),
            within(
                "instance.background_output_mb",
                instance.backgroundOutputMb(),
                d.background().outputMb(),
                ProcessLimits.OUTPUT_MB_MAX,
                problems)));
  }

  private static int within(String key, Long value, int fallback, long max, List<String> problems) {
    if (value == null) {
      return fallback;
    }
    if (value < 1 || value > max) {
      problems.add(key + " must be between 1 and " + max + ", got " + value);
      return fallback;
    }
    return value.intValue();
  }
}
