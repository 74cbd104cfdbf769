package dev.agentcompute.server.config;

import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.model.Ipv4Cidr;
import dev.agentcompute.capabilities.model.SubnetPool;
import dev.agentcompute.server.errors.ConfigException;
import dev.agentcompute.server.errors.UsageException;
import dev.agentcompute.server.observe.LogLevel;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Applies defaults, checks every rule of docs/configuration.md#configuration-file (with its exact
 * messages) and resolves relative paths against the configuration file's directory. All problems
 * are reported at once.
 */
final class ConfigValidator {
  static final long DEFAULT_TTL_MINUTES = 240;
  static final long DEFAULT_MAX_TTL_MINUTES = 1440;

  /** The largest minute count whose nanoseconds still fit a signed 64-bit integer. */
  static final long MAX_REPRESENTABLE_TTL_MINUTES = 153_722_867;

  static final String DEFAULT_IMAGES_FILE = "images/catalog.yaml";

  /** Where dev/setup imports the test image; the original kept its images in "image-build". */
  static final String DEFAULT_IMAGE_PROJECT = "default";

  static final String DEFAULT_SCREENSHOTS_DIR = "screenshots";
  static final String DEFAULT_SCREENSHOTS_LISTEN = "127.0.0.1:8081";

  private static final String IPV4 =
      "(?:(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}"
          + "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
  private static final Pattern CIDR = Pattern.compile(IPV4 + "/(?:3[0-2]|[12]?\\d)");
  private static final Pattern RANGE = Pattern.compile(IPV4 + "-" + IPV4);

  /** The reaper scans this often unless sandbox.reaper_interval_seconds says otherwise. */
  static final long DEFAULT_REAPER_INTERVAL_SECONDS = 30;

  /** Each sandbox bridge network gets one block of this size from network.bridge_subnets. */
  static final int BRIDGE_BLOCK_PREFIX = 24;

  private final Path baseDir;
  private final List<String> problems = new ArrayList<>();

  private ConfigValidator(Path baseDir) {
    this.baseDir = baseDir;
  }

  static ServerConfig validate(RuntimeConfig raw, Path baseDir) {
    ConfigValidator v = new ConfigValidator(baseDir);
    ServerConfig config = v.build(raw);
    if (!v.problems.isEmpty()) {
      throw new ConfigException(v.problems);
    }
    return config;
  }

  private ServerConfig build(RuntimeConfig raw) {
    RuntimeConfig.Incus incus =
        raw.incus() != null
            ? raw.incus()
            : new RuntimeConfig.Incus(
                null, null, null, null, null, null, null, null, null, null, null, null);
    RuntimeConfig.Sandbox sandbox =
        raw.sandbox() != null
            ? raw.sandbox()
            : new RuntimeConfig.Sandbox(
                null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                null);
    ServerConfig.Incus incusConfig = incus(incus);
    ServerConfig.Sandbox sandboxConfig = sandbox(sandbox, raw);
    if ("bridge".equals(sandboxConfig.defaultNetworkKind()) && blank(incus.host())) {
      problems.add("incus.host is required for bridge sandboxes");
    }
    if ("ovn".equals(sandboxConfig.defaultNetworkKind()) && blank(incus.ovnUplink())) {
      // A site's uplink name is no default: the original's would name another site's network.
      problems.add(
          "incus.ovn_uplink is required for OVN sandboxes (sandbox.default_network_kind: ovn):"
              + " name this site's uplink network, e.g. incus: {ovn_uplink: uplink0}"
              + " (`incus network list` shows it), or set sandbox.default_network_kind: bridge");
    }
    Optional<ServerConfig.Lume> lume = lume(raw.lume());
    Path images = null;
    if (raw.imagesFile() != null && raw.imagesFile().isEmpty()) {
      problems.add("images_file must not be empty");
    } else {
      images = resolve(raw.imagesFile() != null ? raw.imagesFile() : DEFAULT_IMAGES_FILE);
    }
    ServerConfig.Screenshots screenshots = screenshots(raw.screenshots());
    ServerConfig.Network network = network(raw.network());
    Optional<LogLevel> logLevel = Optional.empty();
    if (raw.logLevel() != null) {
      try {
        logLevel = Optional.of(LogLevel.parse(raw.logLevel()));
      } catch (UsageException e) {
        problems.add("log_level must be debug, info, warn, or error");
      }
    }
    Optional<ServerConfig.Authorization> authorization =
        RegoPolicyFiles.load(raw.authorization(), this::resolve, problems);
    ServerConfig.Codemode codemode = CodemodeSettings.load(raw, this::resolve, problems);
    ServerConfig.Http http = HttpSettings.load(raw.http(), problems);
    ServerConfig.Audit audit = AuditSettings.load(raw.audit(), this::resolve, problems);
    ServerConfig.Admin admin = admin(raw.admin());
    ServerConfig.Files files = FileSettings.load(raw.files(), problems);
    return new ServerConfig(
        incusConfig,
        lume,
        sandboxConfig,
        images,
        screenshots,
        network,
        logLevel,
        authorization,
        codemode,
        http,
        audit,
        admin,
        files);
  }

  private ServerConfig.Admin admin(RuntimeConfig.Admin admin) {
    List<String> ops = admin == null || admin.operators() == null ? List.of() : admin.operators();
    if (ops.stream().anyMatch(ConfigValidator::blank)) {
      problems.add("admin.operators entries must be identities, got an empty one");
      return ServerConfig.Admin.none();
    }
    return new ServerConfig.Admin(java.util.Set.copyOf(ops));
  }

  private ServerConfig.Incus incus(RuntimeConfig.Incus incus) {
    boolean hasRemote = !blank(incus.remote());
    boolean hasUrl = !blank(incus.url());
    if (hasRemote == hasUrl) {
      problems.add("configure exactly one of incus.remote and incus.url");
    }
    Optional<URI> url = Optional.empty();
    if (hasUrl) {
      url = parseIncusUrl(incus.url());
    }
    if (blank(incus.pool())) {
      problems.add("incus.pool is required");
    }
    Optional<String> ranges = Optional.ofNullable(incus.ovnRanges()).filter(r -> !r.isBlank());
    if (ranges.isPresent()
        && !CIDR.matcher(ranges.get()).matches()
        && !RANGE.matcher(ranges.get()).matches()) {
      problems.add(
          "incus.ovn_ranges must be an IPv4 CIDR or an A.B.C.D-E.F.G.H range, got \""
              + ranges.get()
              + "\"");
    }
    return new ServerConfig.Incus(
        Optional.ofNullable(incus.remote()).filter(s -> !s.isBlank()),
        url,
        pemOrPath(incus.clientCert()),
        pemOrPath(incus.clientKey()),
        pemOrPath(incus.serverCert()),
        Optional.ofNullable(incus.host()).filter(s -> !s.isBlank()),
        incus.pool(),
        Optional.ofNullable(incus.ovnUplink()).filter(s -> !s.isBlank()),
        ranges,
        blank(incus.imageProject()) ? DEFAULT_IMAGE_PROJECT : incus.imageProject(),
        NorthboundSettings.load(
            incus.ovnNorthbound(), incus.ovnNorthboundTls(), this::resolve, problems));
  }

  private ServerConfig.Network network(RuntimeConfig.Network network) {
    ComputeConfig defaults = ComputeConfig.defaults();
    SubnetPool pool = defaults.bridgeSubnets();
    List<Ipv4Cidr> protectedRanges = defaults.protectedRanges();
    if (network != null && network.bridgeSubnets() != null) {
      Optional<Ipv4Cidr> cidr = Ipv4Cidr.parse(network.bridgeSubnets());
      if (cidr.isEmpty() || cidr.get().prefix() > BRIDGE_BLOCK_PREFIX) {
        problems.add(
            "network.bridge_subnets must be an IPv4 CIDR of /"
                + BRIDGE_BLOCK_PREFIX
                + " or larger, got \""
                + network.bridgeSubnets()
                + "\"");
      } else {
        pool = SubnetPool.parse(network.bridgeSubnets(), BRIDGE_BLOCK_PREFIX);
      }
    }
    if (network != null && network.protectedRanges() != null) {
      List<Ipv4Cidr> parsed = new ArrayList<>();
      for (String range : network.protectedRanges()) {
        Optional<Ipv4Cidr> cidr = range == null ? Optional.empty() : Ipv4Cidr.parse(range);
        if (cidr.isEmpty()) {
          problems.add(
              "network.protected_ranges entries must be IPv4 CIDRs, got \"" + range + "\"");
        } else {
          parsed.add(cidr.get());
        }
      }
      protectedRanges = List.copyOf(parsed);
    }
    return new ServerConfig.Network(pool, protectedRanges);
  }

  private Optional<URI> parseIncusUrl(String value) {
    try {
      URI uri = new URI(value);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme();
      if (scheme.equals("unix")) {
        String path = uri.getPath();
        if (path == null || path.isEmpty()) {
          problems.add("incus.url \"" + value + "\" must name a socket path (unix:///path)");
          return Optional.empty();
        }
        return Optional.of(URI.create("unix://" + resolve(path)));
      }
      if (!scheme.equals("https") || uri.getHost() == null) {
        problems.add("incus.url \"" + value + "\" must be https://host[:port] or unix:///path");
        return Optional.empty();
      }
      return Optional.of(uri);
    } catch (URISyntaxException e) {
      problems.add("incus.url \"" + value + "\" is not a valid URL");
      return Optional.empty();
    }
  }

  private ServerConfig.Sandbox sandbox(RuntimeConfig.Sandbox sandbox, RuntimeConfig raw) {
    long defaultTtl =
        sandbox.defaultTtlMinutes() == null || sandbox.defaultTtlMinutes() == 0
            ? DEFAULT_TTL_MINUTES
            : sandbox.defaultTtlMinutes();
    long maxTtl =
        sandbox.maxTtlMinutes() == null || sandbox.maxTtlMinutes() == 0
            ? DEFAULT_MAX_TTL_MINUTES
            : sandbox.maxTtlMinutes();
    if (defaultTtl <= 0
        || maxTtl <= 0
        || defaultTtl > maxTtl
        || maxTtl > MAX_REPRESENTABLE_TTL_MINUTES) {
      problems.add(
          "sandbox TTL minutes must be positive, representable durations with default"
              + " <= maximum");
    }
    String kind =
        sandbox.defaultNetworkKind() == null || sandbox.defaultNetworkKind().isEmpty()
            ? "ovn"
            : sandbox.defaultNetworkKind();
    if (!kind.equals("ovn") && !kind.equals("bridge")) {
      problems.add("sandbox.default_network_kind must be bridge or ovn");
    }
    List<String> pins =
        sandbox.pinIdentities() == null ? List.of() : List.copyOf(sandbox.pinIdentities());
    long interval =
        sandbox.reaperIntervalSeconds() == null
            ? DEFAULT_REAPER_INTERVAL_SECONDS
            : sandbox.reaperIntervalSeconds();
    long lease = sandbox.reaperLeaseSeconds() == null ? interval * 3 : sandbox.reaperLeaseSeconds();
    if (interval <= 0) {
      problems.add("sandbox.reaper_interval_seconds must be positive");
      interval = DEFAULT_REAPER_INTERVAL_SECONDS;
    }
    if (lease <= interval) {
      problems.add(
          "sandbox.reaper_lease_seconds must be longer than sandbox.reaper_interval_seconds");
      lease = interval * 3;
    }
    return new ServerConfig.Sandbox(
        Duration.ofMinutes(Math.max(defaultTtl, 0)),
        Duration.ofMinutes(Math.min(Math.max(maxTtl, 0), MAX_REPRESENTABLE_TTL_MINUTES)),
        kind,
        pins,
        Duration.ofSeconds(interval),
        Duration.ofSeconds(lease),
        confirm(sandbox.confirm()),
        visibility(sandbox.visibility()),
        QuotaSettings.load(
            raw,
            Duration.ofMinutes(Math.min(Math.max(maxTtl, 0), MAX_REPRESENTABLE_TTL_MINUTES)),
            problems),
        isolation(sandbox.access(), sandbox.operators()),
        warmPoolSize(sandbox.warmPool()));
  }

  /** {@code sandbox.warm_pool.size}: 0 (off, the default) to the largest pool. */
  private int warmPoolSize(RuntimeConfig.WarmPool pool) {
    if (pool == null || pool.size() == null) {
      return 0;
    }
    long size = pool.size();
    if (size < 0 || size > ComputeConfig.MAX_WARM_POOL) {
      problems.add(
          "sandbox.warm_pool.size must be between 0 (off) and "
              + ComputeConfig.MAX_WARM_POOL
              + ", got "
              + size);
      return 0;
    }
    return (int) size;
  }

  /** Capability ids; whether each is registered is checked when CodeMode is built. */
  private List<String> confirm(List<String> ids) {
    if (ids == null) {
      return List.of();
    }
    for (String id : ids) {
      if (blank(id)) {
        problems.add("sandbox.confirm entries must be capability ids, got an empty one");
        return List.of();
      }
    }
    if (new java.util.HashSet<>(ids).size() != ids.size()) {
      problems.add("sandbox.confirm lists a capability more than once");
    }
    return List.copyOf(ids);
  }

  private dev.agentcompute.capabilities.config.Isolation isolation(
      String access, List<String> operators) {
    boolean owner = false;
    if (access != null && !access.isEmpty()) {
      if (access.equals("owner")) {
        owner = true;
      } else if (!access.equals("all")) {
        problems.add("sandbox.access must be all or owner, got \"" + access + "\"");
      }
    }
    List<String> ops = operators == null ? List.of() : operators;
    if (ops.stream().anyMatch(ConfigValidator::blank)) {
      problems.add("sandbox.operators entries must be identities, got an empty one");
      ops = List.of();
    }
    return new dev.agentcompute.capabilities.config.Isolation(owner, java.util.Set.copyOf(ops));
  }

  private String visibility(String value) {
    if (value == null || value.isEmpty()) {
      return "all";
    }
    if (!value.equals("all") && !value.equals("owner")) {
      problems.add("sandbox.visibility must be all or owner, got \"" + value + "\"");
      return "all";
    }
    return value;
  }

  private Optional<ServerConfig.Lume> lume(RuntimeConfig.Lume lume) {
    if (lume == null || !lume.anySet()) {
      return Optional.empty();
    }
    if (blank(lume.host())) {
      problems.add("lume.host is required");
    }
    if (blank(lume.identityFile())) {
      problems.add("lume.identity_file is required");
    }
    if (blank(lume.knownHostsFile())) {
      problems.add("lume.known_hosts_file is required");
    }
    if (blank(lume.guestKnownHostsFile())) {
      problems.add("lume.guest_known_hosts_file is required");
    }
    Map<String, Path> guestKeys = new LinkedHashMap<>();
    if (lume.guestKeys() != null) {
      lume.guestKeys()
          .forEach(
              (image, path) -> {
                if (blank(path)) {
                  problems.add("lume.guest_keys." + image + " must be a key file path");
                } else {
                  guestKeys.put(image, resolve(path));
                }
              });
    }
    return Optional.of(
        new ServerConfig.Lume(
            lume.host(),
            resolveOrNull(lume.identityFile()),
            resolveOrNull(lume.knownHostsFile()),
            resolveOrNull(lume.guestKnownHostsFile()),
            Map.copyOf(guestKeys)));
  }

  private ServerConfig.Screenshots screenshots(RuntimeConfig.Screenshots shots) {
    RuntimeConfig.Screenshots s =
        shots != null ? shots : new RuntimeConfig.Screenshots(null, null, null);
    // Optional: without it the URLs point at the listener that serves them (see Screenshots).
    Optional<URI> baseUrl =
        blank(s.baseUrl()) ? Optional.empty() : Optional.ofNullable(screenshotBaseUrl(s.baseUrl()));
    Path dir = resolve(blank(s.dir()) ? DEFAULT_SCREENSHOTS_DIR : s.dir());
    String listen = blank(s.listen()) ? DEFAULT_SCREENSHOTS_LISTEN : s.listen();
    return new ServerConfig.Screenshots(baseUrl, dir, listen);
  }

  private URI screenshotBaseUrl(String value) {
    String rule =
        "screenshots.base_url must be an absolute http or https URL without userinfo,"
            + " query, or fragment";
    try {
      URI uri = new URI(value);
      boolean httpScheme = "http".equals(uri.getScheme()) || "https".equals(uri.getScheme());
      if (!httpScheme
          || uri.getHost() == null
          || uri.getRawUserInfo() != null
          || uri.getRawQuery() != null
          || uri.getRawFragment() != null) {
        problems.add(rule);
        return null;
      }
      return uri;
    } catch (URISyntaxException e) {
      problems.add(rule);
      return null;
    }
  }

  /** Incus certificate fields may hold PEM inline; anything else is a file path. */
  private Optional<String> pemOrPath(String value) {
    if (blank(value)) {
      return Optional.empty();
    }
    return Optional.of(value.contains("-----BEGIN") ? value : resolve(value).toString());
  }

  private Path resolveOrNull(String path) {
    return blank(path) ? null : resolve(path);
  }

  private Path resolve(String path) {
    return baseDir.resolve(path).normalize();
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
