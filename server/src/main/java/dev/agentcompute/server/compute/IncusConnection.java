package dev.agentcompute.server.compute;

import dev.agentcompute.incus.IncusCallObserver;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusIdentity;
import dev.agentcompute.incus.ServerInfo;
import dev.agentcompute.server.config.ServerConfig;
import dev.agentcompute.server.errors.StartupException;
import dev.agentcompute.server.observe.ReadinessCheck;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Opens the Incus client the configuration describes (docs/configuration.md#configuration-file,
 * `incus`): an explicit URL ({@code unix:///path} or {@code https://} with client certificate and
 * optional pinned server certificate), or a remote named in the Incus CLI configuration. {@code
 * local} is the daemon's Unix socket ({@code $INCUS_SOCKET}, else {@code $INCUS_DIR/unix.socket},
 * else {@code /var/lib/incus/unix.socket}).
 */
public final class IncusConnection {
  private IncusConnection() {}

  /** Opens the client; {@code observer} sees every call it makes (the server counts them). */
  public static IncusClient open(
      ServerConfig.Incus incus, Map<String, String> env, IncusCallObserver observer) {
    if (incus.url().isPresent()) {
      return fromUrl(
          incus.url().get(), incus.clientCert(), incus.clientKey(), incus.serverCert(), observer);
    }
    String remote = incus.remote().orElseThrow();
    if (remote.equals("local")) {
      return client(IncusClient.unixSocket(localSocket(env)), observer);
    }
    Path confDir =
        Optional.ofNullable(env.get("INCUS_CONF"))
            .map(Path::of)
            .orElse(Path.of(env.getOrDefault("HOME", "/root"), ".config", "incus"));
    Path configFile = confDir.resolve("config.yml");
    JsonNode addr;
    try {
      addr =
          YAMLMapper.builder()
              .build()
              .readTree(Files.readString(configFile))
              .path("remotes")
              .path(remote)
              .path("addr");
    } catch (IOException | RuntimeException e) {
      throw new StartupException(
          "incus.remote \""
              + remote
              + "\": cannot read the Incus CLI"
              + " configuration "
              + configFile);
    }
    if (addr.isMissingNode() || addr.asString().isEmpty()) {
      throw new StartupException(
          "incus.remote \"" + remote + "\" is not a remote in " + configFile);
    }
    Path serverCert = confDir.resolve("servercerts").resolve(remote + ".crt");
    return fromUrl(
        URI.create(addr.asString()),
        Optional.of(confDir.resolve("client.crt").toString()),
        Optional.of(confDir.resolve("client.key").toString()),
        Files.isRegularFile(serverCert) ? Optional.of(serverCert.toString()) : Optional.empty(),
        observer);
  }

  private static IncusClient fromUrl(
      URI url,
      Optional<String> cert,
      Optional<String> key,
      Optional<String> serverCert,
      IncusCallObserver observer) {
    if ("unix".equals(url.getScheme())) {
      return client(IncusClient.unixSocket(Path.of(url.getPath())), observer);
    }
    if (cert.isEmpty() || key.isEmpty()) {
      throw new StartupException(
          "incus.url " + url + " needs incus.client_cert and" + " incus.client_key");
    }
    IncusIdentity identity;
    try {
      identity = IncusIdentity.fromPem(cert.get(), key.get());
    } catch (RuntimeException e) {
      throw new StartupException(
          "cannot load the Incus client certificate or key: " + e.getMessage());
    }
    IncusClient.Builder builder = IncusClient.https(url, identity);
    serverCert.ifPresent(builder::pinnedServerCertificate);
    return client(builder, observer);
  }

  private static IncusClient client(IncusClient.Builder builder, IncusCallObserver observer) {
    // Operations get the compute backend's budget (instance creation, image copies: 10 minutes).
    return builder
        .requestTimeout(Duration.ofSeconds(30))
        .operationTimeout(Duration.ofMinutes(10))
        .onCall(observer)
        .build();
  }

  static Path localSocket(Map<String, String> env) {
    if (env.containsKey("INCUS_SOCKET")) {
      return Path.of(env.get("INCUS_SOCKET"));
    }
    if (env.containsKey("INCUS_DIR")) {
      return Path.of(env.get("INCUS_DIR"), "unix.socket");
    }
    return Path.of("/var/lib/incus/unix.socket");
  }

  /** Readiness: GET /1.0 answers and trusts us (the client's call observer counts the call). */
  public static ReadinessCheck readiness(IncusClient client) {
    return new ReadinessCheck() {
      @Override
      public String name() {
        return "incus";
      }

      @Override
      public Result check() {
        try {
          ServerInfo info = client.info();
          Map<String, Object> details = new LinkedHashMap<>();
          details.put("endpoint", client.endpoint());
          details.put("trusted", info.trusted());
          if (info.environment() != null) {
            details.put("server_version", String.valueOf(info.environment().serverVersion()));
          }
          return info.trusted() ? Result.up(details) : new Result(false, details);
        } catch (RuntimeException e) {
          return Result.down(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
      }
    };
  }
}
