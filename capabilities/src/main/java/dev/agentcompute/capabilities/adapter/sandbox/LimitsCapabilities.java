package dev.agentcompute.capabilities.adapter.sandbox;

import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.config.IdentityLimits;
import dev.agentcompute.capabilities.config.Quotas;
import dev.agentcompute.capabilities.files.TransferLimits;
import dev.agentcompute.capabilities.model.ComputeLimits;
import dev.agentcompute.capabilities.service.Compute;
import dev.agentcompute.capabilities.service.SandboxService;
import java.util.List;

/**
 * sandbox.limits (ours; docs/reference/capabilities.md#sandboxlimits): the limits this server
 * applies to the caller, with their configured values, and what the caller's live sandboxes hold
 * now, so that an agent can plan within them instead of learning each one from a refusal.
 */
public final class LimitsCapabilities {
  private LimitsCapabilities() {}

  public record LimitsInput() {}

  /** {@code sandbox.default_ttl_minutes}, {@code sandbox.max_ttl_minutes}, {@code max_lifetime}. */
  public record Ttl(long default_minutes, long max_minutes, long max_lifetime_minutes) {}

  /** {@code sandbox.max_per_identity} and the caller's live sandboxes. */
  public record Sandboxes(long max, long used) {}

  /** {@code sandbox.identity_limits.*}: over all of the caller's sandboxes together. */
  public record PerIdentity(
      long instances, long instances_used, long networks, long forwards, long screenshot_mb) {}

  /** {@code sandbox.limits.*}: one sandbox's instances together ({@code processes} 0: none). */
  public record PerSandbox(
      long instances, long cpus, long memory_mb, long networks, long disk_gb, long processes) {}

  /** {@code instance.max_*} and {@code instance.processes}. */
  public record PerInstance(long cpus, long memory_mb, long disk_gb, long processes) {}

  /** {@code instance.background_processes} and {@code instance.background_output_mb}. */
  public record Background(long processes, long output_mb) {}

  /** {@code files.*} and the fixed instance.file.read/write bounds. */
  public record Files(
      long upload_max_bytes,
      long read_max_bytes,
      long write_max_bytes,
      long unused_urls,
      long url_ttl_seconds) {}

  public record LimitsOutput(
      String caller,
      Ttl ttl,
      Sandboxes sandboxes,
      PerIdentity per_identity,
      PerSandbox per_sandbox,
      PerInstance per_instance,
      Background background,
      Files files) {}

  public static List<CapabilityDefinition<?, ?>> definitions(Compute compute) {
    return List.of(
        new CapabilityDefinition<>(
            "sandbox.limits",
            "Show this server's configured limits for the caller (TTL, sandboxes, instances,"
                + " background processes, file transfers) and what the caller uses now.",
            List.of("limits", "quota", "configured"),
            LimitsInput.class,
            LimitsOutput.class,
            (subject, in) ->
                of(
                    subject == null ? "" : subject,
                    compute.config(),
                    compute.files().grants().limits(),
                    compute.sandboxes().usage(subject))));
  }

  /** The output for {@code caller} under {@code config}, with its usage. */
  static LimitsOutput of(
      String caller, ComputeConfig config, TransferLimits files, SandboxService.Usage usage) {
    Quotas q = config.quotas();
    return new LimitsOutput(
        caller,
        new Ttl(
            config.ttl().defaultTtl().toMinutes(),
            config.ttl().maxTtl().toMinutes(),
            q.maxLifetime().toMinutes()),
        new Sandboxes(q.sandboxesPerIdentity(), usage.sandboxes()),
        new PerIdentity(
            q.identity().instances(),
            usage.instances(),
            q.identity().networks(),
            q.identity().forwards(),
            q.identity().screenshotBytes() / IdentityLimits.MIB),
        new PerSandbox(
            q.sandboxInstances(),
            q.sandboxCpus(),
            q.sandboxMemoryMb(),
            q.sandboxNetworks(),
            q.sandboxDiskGb(),
            q.sandboxProcesses()),
        new PerInstance(q.maxCpus(), q.maxMemoryMb(), q.maxDiskGb(), q.processes()),
        new Background(q.background().perInstance(), q.background().outputMb()),
        new Files(
            files.maxUploadBytes(),
            ComputeLimits.FILE_READ_MAX_BYTES,
            ComputeLimits.FILE_WRITE_MAX_BYTES,
            files.maxUrlsPerIdentity(),
            files.urlTtl().toSeconds()));
  }
}
