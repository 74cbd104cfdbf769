package dev.agentcompute.server.config;

import dev.agentcompute.server.compute.ComputeGenerations;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Which keys differ between two configurations, and which of them a running server can take without
 * a restart. The log level swaps atomically; sandbox policy and the catalogue take effect through a
 * new compute generation ({@link ComputeGenerations}). The Incus connection, the Lume backend and
 * the screenshot listener are built once at startup, so changes to them wait for a restart.
 */
final class ConfigChanges {
  private ConfigChanges() {}

  static List<String> changedKeys(ServerConfig before, ServerConfig after) {
    Map<String, Object> a = flatten(before);
    Map<String, Object> b = flatten(after);
    List<String> changed = new ArrayList<>();
    for (String key : a.keySet()) {
      if (!Objects.equals(a.get(key), b.get(key))) {
        changed.add(key);
      }
    }
    return changed;
  }

  /** Why a key cannot change while running, or empty when it can. */
  static Optional<String> restartReason(String key) {
    if (key.startsWith("incus.")) {
      return Optional.of("the Incus connection is opened once at startup");
    }
    if (key.startsWith("lume.")) {
      return Optional.of("the Lume backend is connected once at startup");
    }
    if (key.equals("network.bridge_subnets")) {
      return Optional.of("sandbox networks are allocated from the pool set at startup");
    }
    if (key.equals("tokens_secret_file")) {
      return Optional.of("the token secret is read once at startup");
    }
    if (key.startsWith("http.")) {
      return Optional.of("the HTTP listener and its caps are set up at startup");
    }
    if (key.startsWith("audit.")) {
      return Optional.of("the audit file is opened once at startup");
    }
    if (key.startsWith("files.")) {
      return Optional.of("the file transfer URLs and their limits are set up at startup");
    }
    if (key.startsWith("screenshots.")) {
      return Optional.of("the screenshot store and its listen address are set up at startup");
    }
    return Optional.empty();
  }

  /**
   * What the running server uses after accepting {@code next}: every reloadable key from {@code
   * next}, every restart-only section as it was at startup.
   */
  static ServerConfig live(ServerConfig startup, ServerConfig next) {
    return new ServerConfig(
        startup.incus(),
        startup.lume(),
        next.sandbox(),
        next.imagesFile(),
        startup.screenshots(),
        // The protected ranges follow a reload: the next generation rewrites the bridge baseline.
        new ServerConfig.Network(
            startup.network().bridgeSubnets(), next.network().protectedRanges()),
        next.logLevel(),
        next.authorization(),
        new ServerConfig.Codemode(
            startup.codemode().tokensSecretFile(),
            next.codemode().workerReuse(),
            next.codemode().agentGuidance(),
            next.codemode().workerIsolation(),
            next.codemode().maxSlotsPerIdentity()),
        startup.http(),
        startup.audit(),
        // Operators follow a reload: granting or revoking admin needs no restart.
        next.admin(),
        startup.files());
  }

  static List<LiveConfig.Pending> pending(ServerConfig startup, ServerConfig next) {
    List<LiveConfig.Pending> pending = new ArrayList<>();
    for (String key : changedKeys(startup, next)) {
      restartReason(key).ifPresent(reason -> pending.add(new LiveConfig.Pending(key, reason)));
    }
    return pending;
  }

  private static Map<String, Object> flatten(ServerConfig c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("incus.remote", c.incus().remote());
    m.put("incus.url", c.incus().url());
    m.put("incus.client_cert", c.incus().clientCert());
    m.put("incus.client_key", c.incus().clientKey());
    m.put("incus.server_cert", c.incus().serverCert());
    m.put("incus.host", c.incus().host());
    m.put("incus.pool", c.incus().pool());
    m.put("incus.ovn_uplink", c.incus().ovnUplink());
    m.put("incus.ovn_ranges", c.incus().ovnRanges());
    m.put("incus.image_project", c.incus().imageProject());
    m.put("incus.ovn_northbound", c.incus().ovnNorthbound());
    m.put("network.bridge_subnets", c.network().bridgeSubnets());
    m.put("network.protected_ranges", c.network().protectedRanges());
    m.put("lume", c.lume());
    m.put("sandbox.default_ttl_minutes", c.sandbox().defaultTtl());
    m.put("sandbox.max_ttl_minutes", c.sandbox().maxTtl());
    m.put("sandbox.default_network_kind", c.sandbox().defaultNetworkKind());
    m.put("sandbox.pin_identities", c.sandbox().pinIdentities());
    m.put("sandbox.reaper_interval_seconds", c.sandbox().reaperInterval());
    m.put("sandbox.reaper_lease_seconds", c.sandbox().reaperLease());
    m.put("sandbox.warm_pool.size", c.sandbox().warmPoolSize());
    m.put("images_file", c.imagesFile());
    m.put("screenshots.base_url", c.screenshots().baseUrl());
    m.put("screenshots.dir", c.screenshots().dir());
    m.put("screenshots.listen", c.screenshots().listen());
    m.put("sandbox.confirm", c.sandbox().confirm());
    m.put("sandbox.visibility", c.sandbox().visibility());
    m.put(
        "quotas (instance.*, sandbox.max_*, sandbox.limits.*, sandbox.identity_limits.*)",
        c.sandbox().quotas());
    m.put("sandbox.access, sandbox.operators", c.sandbox().isolation());
    m.put("tokens_secret_file", c.codemode().tokensSecretFile());
    m.put("codemode.worker_reuse", c.codemode().workerReuse());
    m.put("codemode.agent_guidance", c.codemode().agentGuidance());
    m.put("codemode.worker_isolation", c.codemode().workerIsolation());
    m.put("codemode.max_slots_per_identity", c.codemode().maxSlotsPerIdentity());
    m.put("log_level", c.logLevel());
    m.put("http.max_sessions", c.http().maxSessions());
    m.put("http.max_sessions_per_identity", c.http().maxSessionsPerIdentity());
    m.put("http.max_connections", c.http().maxConnections());
    m.put("http.max_concurrent_requests", c.http().maxConcurrentRequests());
    m.put("http.header_timeout_seconds", c.http().headerTimeout());
    m.put("http.drain_timeout_seconds", c.http().drainTimeout());
    m.put("audit.file", c.audit().file());
    m.put("audit.max_file_mb", c.audit().maxFileBytes());
    m.put("audit.max_files", c.audit().maxFiles());
    m.put("files.base_url", c.files().baseUrl());
    m.put("files.max_upload_bytes", c.files().limits().maxUploadBytes());
    m.put("files.url_ttl_seconds", c.files().limits().urlTtl());
    m.put("files.max_urls_per_identity", c.files().limits().maxUrlsPerIdentity());
    m.put("files.transfer_timeout_seconds", c.files().limits().transferTimeout());
    m.put("authorization", c.authorization().map(ServerConfig.Authorization::digest));
    m.put("admin.operators", new java.util.TreeSet<>(c.admin().operators()));
    return m;
  }
}
