package dev.agentcompute.incus;

import java.util.List;
import java.util.Map;

/** {@code GET /1.0}: what the daemon is and how it sees the caller. */
public record ServerInfo(
    String apiVersion,
    String apiStatus,
    List<String> apiExtensions,
    String auth,
    String authUserName,
    String authUserMethod,
    Map<String, String> config,
    Environment environment) {

  public ServerInfo {
    apiExtensions = apiExtensions == null ? List.of() : apiExtensions;
    config = config == null ? Map.of() : config;
  }

  /** The daemon's environment block. {@code certificate} is its TLS certificate in PEM. */
  public record Environment(
      String serverName,
      String serverVersion,
      boolean serverClustered,
      String certificate,
      String certificateFingerprint,
      List<String> addresses,
      List<String> architectures,
      String kernelVersion,
      String project,
      String storage) {}

  public boolean trusted() {
    return "trusted".equals(auth);
  }
}
