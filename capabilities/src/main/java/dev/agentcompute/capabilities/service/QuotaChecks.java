package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.config.Quotas;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import java.time.Instant;
import java.util.Collection;
import java.util.List;

/**
 * The quota refusals, each naming the limit's key and value so that an agent (which sees them as
 * {@code capability failed: ...}) and its operator know what held and where to change it. The Incus
 * limits set on projects and instances hold the same line underneath; these checks come first so
 * the refusal is ours and readable.
 */
final class QuotaChecks {
  private final Quotas quotas;

  QuotaChecks(Quotas quotas) {
    this.quotas = quotas;
  }

  Quotas quotas() {
    return quotas;
  }

  /** An instance's own size against the per-instance maxima. */
  void instanceSize(int cpus, int memoryMb, int diskGb) {
    above("cpus", cpus, quotas.maxCpus(), "instance.max_cpus");
    above("memory_mb", memoryMb, quotas.maxMemoryMb(), "instance.max_memory_mb");
    above("disk_gb", diskGb, quotas.maxDiskGb(), "instance.max_disk_gb");
  }

  /**
   * A VM in an Incus sandbox project with {@code limits.processes}: Incus requires that key on
   * every instance and refuses it on VMs, so say which setting stands in the way before Incus does.
   */
  void kindUnderProjectLimits(String kind) {
    if (kind.equals("vm") && quotas.sandboxProcesses() > 0) {
      QuotaRefusals.refused("sandbox.limits.processes");
      throw Errors.of(
          "kind \"vm\" cannot run in a sandbox with a process limit of %d"
              + " (sandbox.limits.processes): VMs have no limits.processes; leave the setting out"
              + " to allow VMs",
          quotas.sandboxProcesses());
    }
  }

  private static void above(String argument, long value, long max, String key) {
    if (value > max) {
      QuotaRefusals.refused(key);
      throw Errors.of("%s %d exceeds the maximum of %d (%s)", argument, value, max, key);
    }
  }

  /** Room in the sandbox for one more instance of this size. */
  void sandboxRoom(String sandbox, List<SandboxInstance> existing, int cpus, int memoryMb) {
    if (existing.size() >= quotas.sandboxInstances()) {
      QuotaRefusals.refused("sandbox.limits.instances");
      throw Errors.of(
          "sandbox \"%s\" already has %d instances (sandbox.limits.instances)",
          sandbox, quotas.sandboxInstances());
    }
    long usedCpus = existing.stream().mapToLong(SandboxInstance::cpus).sum();
    if (usedCpus + cpus > quotas.sandboxCpus()) {
      QuotaRefusals.refused("sandbox.limits.cpus");
      throw Errors.of(
          "sandbox \"%s\" would use %d CPUs, more than its %d (sandbox.limits.cpus)",
          sandbox, usedCpus + cpus, quotas.sandboxCpus());
    }
    long usedMemory = existing.stream().mapToLong(SandboxInstance::memoryMb).sum();
    if (usedMemory + memoryMb > quotas.sandboxMemoryMb()) {
      QuotaRefusals.refused("sandbox.limits.memory_mb");
      throw Errors.of(
          "sandbox \"%s\" would use %d MiB of memory, more than its %d (sandbox.limits.memory_mb)",
          sandbox, usedMemory + memoryMb, quotas.sandboxMemoryMb());
    }
  }

  /** Room in the sandbox for one more network. */
  void networkRoom(String sandbox, int existing) {
    if (existing >= quotas.sandboxNetworks()) {
      QuotaRefusals.refused("sandbox.limits.networks");
      throw Errors.of(
          "sandbox \"%s\" already has %d networks (sandbox.limits.networks)",
          sandbox, quotas.sandboxNetworks());
    }
  }

  /** Room for one more live sandbox of {@code subject}. */
  void sandboxesOf(String subject, Collection<Sandbox> all, Instant now) {
    long live = all.stream().filter(s -> s.subject().equals(subject) && s.isLive(now)).count();
    if (live >= quotas.sandboxesPerIdentity()) {
      QuotaRefusals.refused("sandbox.max_per_identity");
      throw Errors.of(
          "identity \"%s\" already has %d live sandboxes (sandbox.max_per_identity)",
          subject, quotas.sandboxesPerIdentity());
    }
  }

  /** Room for one more instance among {@code held} across the identity's sandboxes. */
  void identityInstances(String subject, long held) {
    identityRoom(
        subject,
        held,
        quotas.identity().instances(),
        "instances",
        "sandbox.identity_limits.instances");
  }

  /** Room for one more {@code net.create} network across the identity's sandboxes. */
  void identityNetworks(String subject, long held) {
    identityRoom(
        subject,
        held,
        quotas.identity().networks(),
        "networks",
        "sandbox.identity_limits.networks");
  }

  /** Room for one more forwarded port across the identity's OVN networks. */
  void identityForwards(String subject, long held) {
    identityRoom(
        subject,
        held,
        quotas.identity().forwards(),
        "forwards",
        "sandbox.identity_limits.forwards");
  }

  private static void identityRoom(String subject, long held, int max, String what, String key) {
    if (held >= max) {
      QuotaRefusals.refused(key);
      throw Errors.of("identity \"%s\" already has %d %s (%s)", subject, max, what, key);
    }
  }

  /** A new expiry must stay within the sandbox's maximum lifetime from its creation. */
  void lifetime(Sandbox sandbox, Instant expiresAt) {
    if (expiresAt.isAfter(sandbox.createdAt().plus(quotas.maxLifetime()))) {
      QuotaRefusals.refused("sandbox.max_lifetime_minutes");
      throw Errors.of(
          "sandbox \"%s\" cannot live past %d minutes from its creation"
              + " (sandbox.max_lifetime_minutes)",
          sandbox.name(), quotas.maxLifetime().toMinutes());
    }
  }
}
