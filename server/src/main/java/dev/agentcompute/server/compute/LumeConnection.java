package dev.agentcompute.server.compute;

import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.mac.MacConfig;
import dev.agentcompute.capabilities.mac.MacPlatform;
import dev.agentcompute.capabilities.platform.Platform;
import dev.agentcompute.lume.LumeException;
import dev.agentcompute.lume.MacHost;
import dev.agentcompute.server.config.ServerConfig;
import dev.agentcompute.server.errors.StartupException;
import dev.agentcompute.server.observe.ReadinessCheck;
import java.util.Map;
import java.util.Optional;

/**
 * The Mac host of the {@code lume:} section, when configured: one SSH connection shared by every
 * compute generation. Startup checks the host answers and its Lume cannot show guests over VNC
 * (failing startup otherwise, as the original does); afterwards the connection is dialled again
 * whenever it was lost, and /health shows whether the host answers.
 */
public final class LumeConnection implements AutoCloseable {
  private final ServerConfig.Lume config;
  private final MacHost host;

  private LumeConnection(ServerConfig.Lume config, MacHost host) {
    this.config = config;
    this.host = host;
  }

  /** The connection when {@code lume:} is configured, closable in a try-with-resources. */
  public static Holder openIfConfigured(Optional<ServerConfig.Lume> lume) {
    return new Holder(lume.map(LumeConnection::open));
  }

  /** An optional connection that closes it, if any. */
  public record Holder(Optional<LumeConnection> connection) implements AutoCloseable {
    @Override
    public void close() {
      connection.ifPresent(LumeConnection::close);
    }
  }

  /** Opens with the production host tools and runs the startup checks. */
  static LumeConnection open(ServerConfig.Lume lume) {
    return open(lume, MacHost.Tools.DEFAULT);
  }

  /** As {@link #open(ServerConfig.Lume)} with other host tool paths (tests use shims). */
  public static LumeConnection open(ServerConfig.Lume lume, MacHost.Tools tools) {
    MacHost host =
        MacHost.of(
            new MacHost.Config(
                lume.host(),
                lume.identityFile(),
                lume.knownHostsFile(),
                lume.guestKnownHostsFile(),
                tools));
    try {
      MacPlatform.over(host, new MacConfig(Map.of(), java.util.Set.of())).checkVncPolicy();
    } catch (IllegalStateException e) {
      host.close();
      throw new StartupException("lume host " + lume.host() + ": " + e.getMessage(), e);
    }
    return new LumeConnection(lume, host);
  }

  /** The Mac platform for a generation's catalogue (its seeds are protected). */
  Platform platform(ImageCatalog catalog) {
    return MacPlatform.over(host, MacConfig.forCatalog(catalog, config.guestKeys())).platform();
  }

  public ReadinessCheck readiness() {
    return new ReadinessCheck() {
      @Override
      public String name() {
        return "lume";
      }

      @Override
      public Result check() {
        try {
          host.checkReachable();
          return Result.up(Map.of("host", config.host()));
        } catch (LumeException e) {
          return new Result(false, Map.of("host", config.host(), "error", e.getMessage()));
        }
      }
    };
  }

  @Override
  public void close() {
    host.close();
  }
}
