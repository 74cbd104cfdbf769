package dev.agentcompute.server.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * The runtime configuration file (docs/configuration.md#configuration-file) as decoded, before
 * defaults and validation. Absent sections and keys are {@code null}; {@link ConfigLoader} fills
 * defaults, validates and resolves relative paths. No key holds a secret: bearer tokens come only
 * from credentials. {@code log_level} is ours (not in the original): a reloadable override of
 * --log-level.
 */
public record RuntimeConfig(
    Incus incus,
    Lume lume,
    Sandbox sandbox,
    @JsonProperty("images_file") String imagesFile,
    Screenshots screenshots,
    Network network,
    @JsonProperty("log_level") String logLevel,
    Authorization authorization,
    @JsonProperty("tokens_secret_file") String tokensSecretFile,
    Codemode codemode,
    Http http,
    Instance instance,
    Audit audit,
    Admin admin,
    Files files) {

  /**
   * The audit trail's JSON-lines file (ours; docs/operations.md#audit-trail), rotated at {@code
   * max_file_mb}, {@code max_files} files kept.
   */
  public record Audit(
      String file,
      @JsonProperty("max_file_mb") Long maxFileMb,
      @JsonProperty("max_files") Long maxFiles) {}

  /**
   * Who administers the server (ours; docs/operations.md#administration): the identities (token
   * names) allowed on the admin API, the CLI's admin commands and the console.
   */
  public record Admin(List<String> operators) {}

  /**
   * File transfer URLs (ours; docs/configuration.md): where they point, the largest upload, how
   * long a URL lives, how many unused URLs one identity may hold, and how long one transfer may
   * take.
   */
  public record Files(
      @JsonProperty("base_url") String baseUrl,
      @JsonProperty("max_upload_bytes") Long maxUploadBytes,
      @JsonProperty("url_ttl_seconds") Long urlTtlSeconds,
      @JsonProperty("max_urls_per_identity") Long maxUrlsPerIdentity,
      @JsonProperty("transfer_timeout_seconds") Long transferTimeoutSeconds) {}

  /**
   * What one instance may ask for (ours; docs/configuration.md): the most CPUs, memory and root
   * disk, the {@code limits.processes} every container gets, and its background processes (how many
   * run at once, and the MiB each of their streams keeps).
   */
  public record Instance(
      @JsonProperty("max_cpus") Long maxCpus,
      @JsonProperty("max_memory_mb") Long maxMemoryMb,
      @JsonProperty("max_disk_gb") Long maxDiskGb,
      Long processes,
      @JsonProperty("background_processes") Long backgroundProcesses,
      @JsonProperty("background_output_mb") Long backgroundOutputMb) {
    public Instance(Long maxCpus, Long maxMemoryMb, Long maxDiskGb, Long processes) {
      this(maxCpus, maxMemoryMb, maxDiskGb, processes, null, null);
    }
  }

  /** What one sandbox may hold together (ours; docs/configuration.md). */
  public record SandboxLimits(
      Long instances,
      Long cpus,
      @JsonProperty("memory_mb") Long memoryMb,
      Long networks,
      @JsonProperty("disk_gb") Long diskGb,
      Long processes) {}

  /** What one identity may hold across its live sandboxes (ours; docs/configuration.md). */
  public record IdentityLimits(
      Long instances,
      Long networks,
      Long forwards,
      @JsonProperty("screenshot_mb") Long screenshotMb) {}

  /**
   * The HTTP front door's caps (ours): MCP sessions in total and per identity, open TCP
   * connections, requests answered at once, and the header read timeout.
   */
  public record Http(
      @JsonProperty("max_sessions") Long maxSessions,
      @JsonProperty("max_sessions_per_identity") Long maxSessionsPerIdentity,
      @JsonProperty("max_connections") Long maxConnections,
      @JsonProperty("max_concurrent_requests") Long maxConcurrentRequests,
      @JsonProperty("header_timeout_seconds") Long headerTimeoutSeconds,
      @JsonProperty("drain_timeout_seconds") Long drainTimeoutSeconds) {}

  /**
   * CodeMode engine settings (ours): worker reuse for one subject's executions
   * (docs/reference/codemode.md#worker-reuse), agent guidance (errors that say what to fix; on when
   * absent), and worker isolation ({@code auto}, {@code bubblewrap} or {@code none};
   * docs/security.md).
   */
  public record Codemode(
      @JsonProperty("worker_reuse") WorkerReuse workerReuse,
      @JsonProperty("agent_guidance") Boolean agentGuidance,
      @JsonProperty("worker_isolation") String workerIsolation,
      @JsonProperty("max_slots_per_identity") Long maxSlotsPerIdentity) {}

  /** A worker JVM serves up to {@code max_executions} of one subject, idle at most so long. */
  public record WorkerReuse(
      @JsonProperty("max_executions") Long maxExecutions,
      @JsonProperty("max_idle_seconds") Long maxIdleSeconds) {}

  /**
   * Who may call which capability: an in-process Rego policy (ours;
   * docs/reference/rego.md#server-configuration).
   */
  public record Authorization(Rego rego) {}

  /**
   * A Rego policy: {@code decision} answers every native call (EXECUTE), the optional {@code
   * discover} decides what search and describe show; {@code files} are read relative to the
   * configuration file.
   */
  public record Rego(String decision, String discover, List<String> files) {}

  /** How to reach Incus: exactly one of a named CLI remote or an explicit URL. */
  public record Incus(
      String remote,
      String url,
      @JsonProperty("client_cert") String clientCert,
      @JsonProperty("client_key") String clientKey,
      @JsonProperty("server_cert") String serverCert,
      String host,
      String pool,
      @JsonProperty("ovn_uplink") String ovnUplink,
      @JsonProperty("ovn_ranges") String ovnRanges,
      @JsonProperty("image_project") String imageProject,
      @JsonProperty("ovn_northbound") String ovnNorthbound,
      @JsonProperty("ovn_northbound_tls") NorthboundTls ovnNorthboundTls) {}

  /**
   * The client side of an {@code ssl:} northbound connection: our certificate and key (PEM files)
   * and how the server is trusted, by a CA ({@code ca_cert}) or by its own certificate's SHA-256
   * ({@code server_sha256}).
   */
  public record NorthboundTls(
      @JsonProperty("client_cert") String clientCert,
      @JsonProperty("client_key") String clientKey,
      @JsonProperty("ca_cert") String caCert,
      @JsonProperty("server_sha256") String serverSha256) {}

  /** The optional macOS (Lume) backend; setting any key enables it. */
  public record Lume(
      String host,
      @JsonProperty("identity_file") String identityFile,
      @JsonProperty("known_hosts_file") String knownHostsFile,
      @JsonProperty("guest_known_hosts_file") String guestKnownHostsFile,
      @JsonProperty("guest_keys") Map<String, String> guestKeys) {

    boolean anySet() {
      return host != null
          || identityFile != null
          || knownHostsFile != null
          || guestKnownHostsFile != null
          || guestKeys != null;
    }
  }

  /**
   * Sandbox lifetime policy, plus (ours) the capabilities that need a person's confirmation and
   * whether agents see every sandbox ({@code all}) or only their own ({@code owner}).
   */
  public record Sandbox(
      @JsonProperty("default_ttl_minutes") Long defaultTtlMinutes,
      @JsonProperty("max_ttl_minutes") Long maxTtlMinutes,
      @JsonProperty("default_network_kind") String defaultNetworkKind,
      @JsonProperty("pin_identities") List<String> pinIdentities,
      @JsonProperty("reaper_interval_seconds") Long reaperIntervalSeconds,
      @JsonProperty("reaper_lease_seconds") Long reaperLeaseSeconds,
      List<String> confirm,
      String visibility,
      @JsonProperty("max_per_identity") Long maxPerIdentity,
      @JsonProperty("max_lifetime_minutes") Long maxLifetimeMinutes,
      SandboxLimits limits,
      String access,
      List<String> operators,
      @JsonProperty("identity_limits") IdentityLimits identityLimits,
      @JsonProperty("warm_pool") WarmPool warmPool) {}

  /** {@code sandbox.warm_pool}: bridge sandboxes kept prepared for sandbox.create. */
  public record WarmPool(Long size) {}

  /**
   * Address ranges (ours: constants of the original's site, made configuration). Sandbox bridge
   * networks get explicit /24 blocks from {@code bridge_subnets}; {@code protected_ranges} are the
   * management and out-of-band ranges no sandbox network may reach.
   */
  public record Network(
      @JsonProperty("bridge_subnets") String bridgeSubnets,
      @JsonProperty("protected_ranges") List<String> protectedRanges) {}

  /** The transient screenshot store. */
  public record Screenshots(@JsonProperty("base_url") String baseUrl, String dir, String listen) {}
}
