package dev.agentcompute.server.config;

import dev.agentcompute.capabilities.model.Ipv4Cidr;
import dev.agentcompute.capabilities.model.SubnetPool;
import dev.agentcompute.codemode.authz.rego.RegoAccessPolicy;
import dev.agentcompute.ovn.OvsdbEndpoint;
import dev.agentcompute.server.observe.LogLevel;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A validated runtime configuration with defaults applied and every relative path resolved against
 * the configuration file's directory. Immutable; a reload produces a new instance.
 */
public record ServerConfig(
    Incus incus,
    Optional<Lume> lume,
    Sandbox sandbox,
    Path imagesFile,
    Screenshots screenshots,
    Network network,
    Optional<LogLevel> logLevel,
    Optional<Authorization> authorization,
    Codemode codemode,
    Http http,
    Audit audit,
    Admin admin,
    Files files) {

  /**
   * The audit trail's JSON-lines file, if any, the size that rotates it and the files kept (the
   * current one included).
   */
  public record Audit(Optional<Path> file, long maxFileBytes, int maxFiles) {}

  /**
   * The operator identities ({@code admin.operators}): they may use the admin API and the console.
   * A grant of its own, apart from {@code sandbox.operators} (which only widens what an agent
   * reaches under owner isolation).
   */
  public record Admin(java.util.Set<String> operators) {
    public Admin {
      operators = java.util.Set.copyOf(operators);
    }

    /** No operator: the admin API refuses everyone. */
    public static Admin none() {
      return new Admin(java.util.Set.of());
    }

    public boolean isOperator(String identity) {
      return identity != null && operators.contains(identity);
    }
  }

  /**
   * File transfer URLs: {@code baseUrl} (else the HTTP listener's URL) and the limits every refusal
   * names.
   */
  public record Files(
      Optional<URI> baseUrl, dev.agentcompute.capabilities.files.TransferLimits limits) {}

  /**
   * The HTTP front door's caps: MCP sessions in total and per identity, open TCP connections,
   * requests answered at once, and how long a request's headers may take to arrive.
   */
  public record Http(
      int maxSessions,
      int maxSessionsPerIdentity,
      int maxConnections,
      int maxConcurrentRequests,
      Duration headerTimeout,
      Duration drainTimeout) {}

  /**
   * CodeMode settings: the file holding the 32-byte token secret (cursors and confirmations then
   * survive restarts and work across servers), worker reuse (off when empty), agent guidance:
   * failures that say what to fix and name the calls that already ran (on by default; off keeps the
   * original's texts), how workers are confined, and how many of the execution slots one identity
   * may hold at once ({@code codemode.max_slots_per_identity}).
   */
  public record Codemode(
      Optional<Path> tokensSecretFile,
      Optional<WorkerReuse> workerReuse,
      boolean agentGuidance,
      dev.agentcompute.codemode.WorkerIsolation workerIsolation,
      long maxSlotsPerIdentity) {}

  /** One worker JVM runs up to {@code maxExecutions} executions of one subject. */
  public record WorkerReuse(long maxExecutions, Duration maxIdle) {}

  /**
   * The Rego policy in force: its decisions, files and the compiled policy, whose digest (decision
   * plus every file's name and content) identifies it; two versions are the same when the digest
   * and the decisions are.
   */
  public record Authorization(
      String decision, Optional<String> discover, List<Path> files, RegoAccessPolicy policy) {
    public String digest() {
      return policy.digest();
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Authorization a
          && a.decision.equals(decision)
          && a.discover.equals(discover)
          && a.files.equals(files)
          && a.digest().equals(digest());
    }

    @Override
    public int hashCode() {
      return java.util.Objects.hash(decision, discover, files, digest());
    }
  }

  /**
   * Incus connection. {@code remote} and {@code url} are exclusive. Certificate fields hold either
   * inline PEM or an absolute path. The OVN uplink and forward range are this site's own networks,
   * so they have no defaults: absent, OVN networks with NAT and forwards are refused.
   */
  public record Incus(
      Optional<String> remote,
      Optional<URI> url,
      Optional<String> clientCert,
      Optional<String> clientKey,
      Optional<String> serverCert,
      Optional<String> host,
      String pool,
      Optional<String> ovnUplink,
      Optional<String> ovnRanges,
      String imageProject,
      Optional<OvsdbEndpoint> ovnNorthbound) {}

  /** The macOS backend; present only when the file configures it. */
  public record Lume(
      String host,
      Path identityFile,
      Path knownHostsFile,
      Path guestKnownHostsFile,
      Map<String, Path> guestKeys) {}

  /**
   * Sandbox policy: TTL bounds, the default network fabric, who may pin, the reaper's scan interval
   * and lease (how long a server that stopped renewing keeps others from reaping), the capability
   * ids that need a person's confirmation, sandbox visibility ({@code all} or {@code owner}), and
   * the quotas of instances, sandboxes and identities ({@code instance.*}, {@code sandbox.*}), and
   * owner isolation ({@code sandbox.access}, {@code sandbox.operators}), and how many bridge
   * sandboxes are kept prepared ({@code sandbox.warm_pool.size}).
   */
  public record Sandbox(
      Duration defaultTtl,
      Duration maxTtl,
      String defaultNetworkKind,
      List<String> pinIdentities,
      Duration reaperInterval,
      Duration reaperLease,
      List<String> confirm,
      String visibility,
      dev.agentcompute.capabilities.config.Quotas quotas,
      dev.agentcompute.capabilities.config.Isolation isolation,
      int warmPoolSize) {

    /** Whether agents see only the sandboxes they created. */
    public boolean ownerVisibility() {
      return "owner".equals(visibility);
    }
  }

  /** Address ranges: the pool of sandbox bridge subnets and the protected ranges. */
  public record Network(SubnetPool bridgeSubnets, List<Ipv4Cidr> protectedRanges) {}

  /**
   * Screenshot store settings. Without {@code baseUrl}, screenshot URLs point at the listener that
   * serves them in this process: the MCP listener over HTTP, {@code listen} over stdio.
   */
  public record Screenshots(Optional<URI> baseUrl, Path dir, String listen) {}
}
