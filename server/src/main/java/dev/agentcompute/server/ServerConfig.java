package dev.agentcompute.server;

import dev.agentcompute.capabilities.net.Ipv4Cidr;
import dev.agentcompute.capabilities.net.SubnetPool;
import dev.agentcompute.ovn.OvsdbEndpoint;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A validated runtime configuration with defaults applied and every relative path resolved
 * against the configuration file's directory. Immutable; a reload produces a new instance.
 */
public record ServerConfig(
    Incus incus,
    Optional<Lume> lume,
    Sandbox sandbox,
    Path imagesFile,
    Screenshots screenshots,
    Network network,
    Optional<LogLevel> logLevel) {

  /**
   * Incus connection. {@code remote} and {@code url} are exclusive. Certificate fields hold
   * either inline PEM or an absolute path.
   */
  public record Incus(
      Optional<String> remote,
      Optional<URI> url,
      Optional<String> clientCert,
      Optional<String> clientKey,
      Optional<String> serverCert,
      Optional<String> host,
      String pool,
      String ovnUplink,
      String ovnRanges,
      String imageProject,
      Optional<OvsdbEndpoint> ovnNorthbound) {}

  /** The macOS backend; present only when the file configures it. */
  public record Lume(
      String host,
      Path identityFile,
      Path knownHostsFile,
      Path guestKnownHostsFile,
      Map<String, Path> guestKeys) {}

  /** Sandbox policy: TTL bounds, the default network fabric, and who may pin. */
  public record Sandbox(
      Duration defaultTtl,
      Duration maxTtl,
      String defaultNetworkKind,
      List<String> pinIdentities) {}

  /** Address ranges: the pool of sandbox bridge subnets and the protected ranges. */
  public record Network(SubnetPool bridgeSubnets, List<Ipv4Cidr> protectedRanges) {}

  /** Screenshot store settings. */
  public record Screenshots(URI baseUrl, Path dir, String listen) {}
}
