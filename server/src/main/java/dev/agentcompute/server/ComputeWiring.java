package dev.agentcompute.server;

import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.net.NetworkKind;
import dev.agentcompute.capabilities.sandbox.TtlPolicy;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Maps the server configuration onto the compute capabilities' configuration and finds the
 * Incus socket they use. Values the file does not set (subnet pool, protected ranges, reaper
 * interval, image project) keep the capabilities module's defaults.
 */
final class ComputeWiring {
  private ComputeWiring() {}

  static ComputeConfig computeConfig(ServerConfig config) {
    ComputeConfig defaults = ComputeConfig.defaults();
    ServerConfig.Sandbox sandbox = config.sandbox();
    return new ComputeConfig(
        new TtlPolicy(sandbox.defaultTtl(), sandbox.maxTtl()),
        Set.copyOf(sandbox.pinIdentities()),
        NetworkKind.parse(sandbox.defaultNetworkKind()).orElseThrow(),
        config.incus().host().orElse(defaults.member()),
        config.incus().pool(),
        defaults.imageProject(),
        config.imagesFile(),
        defaults.bridgeSubnets(),
        config.incus().ovnUplink(),
        config.incus().ovnRanges(),
        defaults.protectedRanges(),
        defaults.reaperInterval());
  }

  /** The compute backend reaches Incus over its Unix socket. */
  static Path unixSocket(ServerConfig.Incus incus, Map<String, String> env) {
    Optional<URI> url = incus.url();
    if (url.isEmpty() && incus.remote().orElse("").equals("local")) {
      return IncusConnection.localSocket(env);
    }
    if (url.isEmpty()) {
      url = remoteAddress(incus.remote().orElseThrow(), env);
    }
    if (url.isPresent() && "unix".equals(url.get().getScheme())) {
      return Path.of(url.get().getPath());
    }
    throw new StartupException("the compute capabilities reach Incus over its Unix socket only"
        + " for now: set incus.url to unix:///path/to/unix.socket or incus.remote to local");
  }

  private static Optional<URI> remoteAddress(String remote, Map<String, String> env) {
    Path confDir = Optional.ofNullable(env.get("INCUS_CONF")).map(Path::of)
        .orElse(Path.of(env.getOrDefault("HOME", "/root"), ".config", "incus"));
    try {
      JsonNode addr = YAMLMapper.builder().build()
          .readTree(Files.readString(confDir.resolve("config.yml")))
          .path("remotes").path(remote).path("addr");
      return addr.isMissingNode() ? Optional.empty() : Optional.of(URI.create(addr.asString()));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
