package dev.agentcompute.server.compute;

import dev.agentcompute.ovn.OvnNorthbound;
import dev.agentcompute.ovn.OvsdbEndpoint;
import dev.agentcompute.ovn.OvsdbException;
import dev.agentcompute.server.config.ServerConfig;
import dev.agentcompute.server.errors.StartupException;
import dev.agentcompute.server.observe.ReadinessCheck;
import java.util.Map;
import java.util.Optional;

/**
 * The OVN northbound database connection of {@code incus.ovn_northbound}, when configured. It is
 * opened once at startup (a database that cannot be reached fails startup, as Incus does) and then
 * reconnects by itself; readiness reports whether it is connected and its cache current.
 */
public final class OvnConnection implements AutoCloseable {
  private final Optional<OvsdbEndpoint> endpoint;
  private final Optional<OvnNorthbound> northbound;

  private OvnConnection(Optional<OvsdbEndpoint> endpoint, Optional<OvnNorthbound> northbound) {
    this.endpoint = endpoint;
    this.northbound = northbound;
  }

  public static OvnConnection open(ServerConfig.Incus incus) {
    Optional<OvsdbEndpoint> endpoint = incus.ovnNorthbound();
    if (endpoint.isEmpty()) {
      return new OvnConnection(endpoint, Optional.empty());
    }
    try {
      return new OvnConnection(endpoint, Optional.of(OvnNorthbound.connect(endpoint.get())));
    } catch (OvsdbException | IllegalArgumentException e) {
      throw new StartupException(
          "cannot connect to the OVN northbound database at "
              + endpoint.get()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  public Optional<OvnNorthbound> northbound() {
    return northbound;
  }

  public Optional<ReadinessCheck> readiness() {
    return northbound.map(
        nb ->
            new ReadinessCheck() {
              @Override
              public String name() {
                return "ovn-northbound";
              }

              @Override
              public Result check() {
                Map<String, Object> details = Map.of("endpoint", endpoint.orElseThrow().toString());
                return nb.isConnected() ? Result.up(details) : new Result(false, details);
              }
            });
  }

  @Override
  public void close() {
    northbound.ifPresent(OvnNorthbound::close);
  }
}
