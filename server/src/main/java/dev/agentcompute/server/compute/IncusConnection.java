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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
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
    Remote resolved = Remote.resolve(remote, env);
    return fromUrl(
        resolved.url(),
        Optional.of(resolved.clientCert().toString()),
        Optional.of(resolved.clientKey().toString()),
        resolved.serverCert().map(Path::toString),
        observer);
  }

  /**
   * A remote of the Incus CLI configuration ({@code $INCUS_CONF}, else {@code ~/.config/incus}):
   * its address and the CLI's client certificate, key and pinned server certificate (when present).
   */
  record Remote(URI url, Path clientCert, Path clientKey, Optional<Path> serverCert) {
    static Remote resolve(String remote, Map<String, String> env) {
      Path confDir =
          Optional.ofNullable(env.get("INCUS_CONF"))
              .map(Path::of)
              .orElse(Path.of(env.getOrDefault("HOME", "/root"), ".config", "incus"));
      Path configFile = confDir.resolve("config.yml");
      JsonNode remotes;
      try {
        remotes =
            YAMLMapper.builder().build().readTree(Files.readString(configFile)).path("remotes");
      } catch (IOException | RuntimeException e) {
        throw new StartupException(
            "incus.remote \""
                + remote
                + "\": cannot read the Incus CLI"
                + " configuration "
                + configFile);
      }
      JsonNode addr = remotes.path(remote).path("addr");
      if (addr.isMissingNode() || addr.asString().isEmpty()) {
        List<String> known = new ArrayList<>(remotes.propertyNames());
        throw new StartupException(
            "incus.remote \""
                + remote
                + "\" is not a remote in "
                + configFile
                + (known.isEmpty() ? "" : " (its remotes: " + String.join(", ", known) + ")"));
      }
      Path serverCert = confDir.resolve("servercerts").resolve(remote + ".crt");
      return new Remote(
          URI.create(addr.asString()),
          confDir.resolve("client.crt"),
          confDir.resolve("client.key"),
          Files.isRegularFile(serverCert) ? Optional.of(serverCert) : Optional.empty());
    }
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
