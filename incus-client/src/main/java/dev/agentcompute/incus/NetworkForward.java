package dev.agentcompute.incus;

import java.util.List;
import java.util.Map;

/**
 * A network address forward: traffic to {@code listenAddress} (by port) goes to instance addresses.
 */
public record NetworkForward(
    String listenAddress,
    String description,
    Map<String, String> config,
    List<Port> ports,
    String location) {

  public NetworkForward {
    config = config == null ? Map.of() : config;
    ports = ports == null ? List.of() : ports;
  }

  public NetworkForward withPorts(List<Port> newPorts) {
    return new NetworkForward(listenAddress, description, config, newPorts, location);
  }

  /**
   * One port rule; ports are strings because Incus accepts ranges and lists ({@code
   * "80,8000-8010"}).
   */
  public record Port(
      String description,
      String protocol,
      String listenPort,
      String targetPort,
      String targetAddress) {}
}
