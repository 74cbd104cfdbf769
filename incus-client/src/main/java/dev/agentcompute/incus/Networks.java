package dev.agentcompute.incus;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.type.TypeReference;

/**
 * {@code /1.0/networks} (with leases, forwards and peers) and {@code /1.0/network-allocations}, in
 * the client's project; creation honours the client's target member.
 */
public final class Networks {

  private final Rest rest;
  private final Scope scope;

  Networks(Rest rest, Scope scope) {
    this.rest = rest;
    this.scope = scope;
  }

  public void create(NetworkSpec spec) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", spec.name());
    body.put("type", spec.type());
    body.put("description", spec.description() == null ? "" : spec.description());
    body.put("config", spec.config() == null ? Map.of() : spec.config());
    rest.call(scope, "POST", "/1.0/networks", body, null);
  }

  public Network get(String name) {
    return rest.get(scope, path(name), Network.class);
  }

  public Tagged<Network> getTagged(String name) {
    return rest.getTagged(scope, path(name), Network.class);
  }

  /**
   * The names of the project's networks ({@code recursion=0}: no per-network state, which Incus
   * computes slowly when there are many).
   */
  public List<String> names() {
    return Scope.lastSegments(
        rest.get(scope, "/1.0/networks", new TypeReference<List<String>>() {}));
  }

  public List<Network> list() {
    return rest.get(scope, "/1.0/networks?recursion=1", new TypeReference<List<Network>>() {});
  }

  /** Every project's networks (needs {@code networks_all_projects}). */
  public List<Network> listAllProjects() {
    return rest.get(
        scope,
        "/1.0/networks?recursion=1&all-projects=true",
        new TypeReference<List<Network>>() {});
  }

  public void update(String name, String description, Map<String, String> config, String etag) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("description", description == null ? "" : description);
    body.put("config", config);
    rest.call(scope, "PUT", path(name), body, etag);
  }

  public void delete(String name) {
    rest.call(scope, "DELETE", path(name), null, null);
  }

  /** Live state; for OVN networks it names the logical router and switch Incus built. */
  public NetworkState state(String name) {
    return rest.get(scope, path(name) + "/state", NetworkState.class);
  }

  public List<NetworkLease> leases(String name) {
    return rest.get(scope, path(name) + "/leases", new TypeReference<List<NetworkLease>>() {});
  }

  public List<NetworkForward> forwards(String network) {
    return rest.get(
        scope,
        path(network) + "/forwards?recursion=1",
        new TypeReference<List<NetworkForward>>() {});
  }

  public NetworkForward forward(String network, String listenAddress) {
    return rest.get(scope, forwardPath(network, listenAddress), NetworkForward.class);
  }

  public void createForward(String network, NetworkForward forward) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("listen_address", forward.listenAddress());
    body.put("description", forward.description() == null ? "" : forward.description());
    body.put("config", forward.config());
    body.put("ports", forward.ports());
    rest.call(scope, "POST", path(network) + "/forwards", body, null);
  }

  /** Replaces description, config and ports of the forward on {@code forward.listenAddress()}. */
  public void updateForward(String network, NetworkForward forward) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("description", forward.description() == null ? "" : forward.description());
    body.put("config", forward.config());
    body.put("ports", forward.ports());
    rest.call(scope, "PUT", forwardPath(network, forward.listenAddress()), body, null);
  }

  public void deleteForward(String network, String listenAddress) {
    rest.call(scope, "DELETE", forwardPath(network, listenAddress), null, null);
  }

  public List<NetworkPeer> peers(String network) {
    return rest.get(
        scope, path(network) + "/peers?recursion=1", new TypeReference<List<NetworkPeer>>() {});
  }

  public NetworkPeer peer(String network, String peer) {
    return rest.get(scope, path(network) + "/peers/" + Scope.segment(peer), NetworkPeer.class);
  }

  public void createPeer(String network, NetworkPeer peer) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", peer.name());
    body.put("description", peer.description() == null ? "" : peer.description());
    body.put("type", peer.type() == null ? "local" : peer.type());
    body.put("target_project", peer.targetProject());
    body.put("target_network", peer.targetNetwork());
    body.put("config", peer.config());
    rest.call(scope, "POST", path(network) + "/peers", body, null);
  }

  public void deletePeer(String network, String peer) {
    rest.call(scope, "DELETE", path(network) + "/peers/" + Scope.segment(peer), null, null);
  }

  /** Addresses in use; {@code allProjects} lists every project's, not only the client's. */
  public List<NetworkAllocation> allocations(boolean allProjects) {
    return racingDeletes(
        () ->
            rest.get(
                scope,
                "/1.0/network-allocations" + (allProjects ? "?all-projects=true" : ""),
                new TypeReference<List<NetworkAllocation>>() {}));
  }

  /** How many times a listing is tried while networks vanish under it. */
  private static final int LISTING_ATTEMPTS = 5;

  /**
   * A listing retried while a network it names is deleted meanwhile: Incus reads the network names,
   * then loads each, and one deleted in between fails the whole listing with 404 {@code Failed
   * loading network "x" in project "y": Network not found}. Any other failure, and the last
   * attempt's, reaches the caller.
   */
  private static <T> T racingDeletes(java.util.function.Supplier<T> listing) {
    for (int attempt = 1; ; attempt++) {
      try {
        return listing.get();
      } catch (IncusException.NotFound e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        if (attempt >= LISTING_ATTEMPTS || !message.contains("Failed loading network")) {
          throw e;
        }
      }
    }
  }

  private static String path(String name) {
    return "/1.0/networks/" + Scope.segment(name);
  }

  private static String forwardPath(String network, String listenAddress) {
    return path(network) + "/forwards/" + Scope.segment(listenAddress);
  }
}
