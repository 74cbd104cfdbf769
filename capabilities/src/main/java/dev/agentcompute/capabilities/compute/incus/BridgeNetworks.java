package dev.agentcompute.capabilities.compute.incus;

import dev.agentcompute.capabilities.compute.BackendException;
import dev.agentcompute.capabilities.compute.BackendException.Kind;
import dev.agentcompute.capabilities.compute.Errors;
import dev.agentcompute.capabilities.compute.Network;
import dev.agentcompute.capabilities.net.Ipv4Cidr;
import dev.agentcompute.capabilities.net.SubnetPool;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import tools.jackson.databind.JsonNode;

/**
 * Sandbox bridge networks: default-project bridges named {@code ac<8 hex>} and tagged with their
 * sandbox and logical name. Subnets come from the configured pool; which blocks are taken is read
 * from every managed network Incus knows, so nothing is lost on restart. One lock spans reading the
 * used blocks and creating the network, so two concurrent creations never pick the same block.
 */
final class BridgeNetworks {
  private static final int NAME_ATTEMPTS = 8;

  private final IncusRest rest;
  private final SubnetPool pool;
  private final SecureRandom random = new SecureRandom();
  private final ReentrantLock allocation = new ReentrantLock();

  BridgeNetworks(IncusRest rest, SubnetPool pool) {
    this.rest = rest;
    this.pool = pool;
  }

  /** An {@code ac<8 hex>} name no network has yet. */
  String freePhysicalName() {
    for (int i = 0; i < NAME_ATTEMPTS; i++) {
      byte[] bytes = new byte[4];
      random.nextBytes(bytes);
      String name = "ac" + HexFormat.of().formatHex(bytes);
      try {
        rest.get(null, "/1.0/networks/" + name);
      } catch (BackendException e) {
        if (e.isNotFound()) {
          return name;
        }
        throw e;
      }
    }
    throw new BackendException(Kind.FAILED, "unable to allocate a bridge name");
  }

  /**
   * Creates a bridge. With an explicit {@code cidr} it is used verbatim; otherwise a network with any
   * of DHCP, NAT or DNS gets the next free block of the pool, and one with none is a bare L2 bridge.
   */
  Network create(String sandbox, String logical, String physical, String cidr, boolean dhcp, boolean nat,
      boolean dns) {
    allocation.lock();
    try {
      String address;
      if (cidr != null && !cidr.isEmpty()) {
        address = cidr;
      } else if (dhcp || nat || dns) {
        address = pool.firstFree(usedSubnets())
            .orElseThrow(() -> Errors.of("no free subnet remains in the sandbox subnet pool %s", pool.pool()))
            .toString();
      } else {
        address = "none";
      }
      Map<String, String> cfg = new LinkedHashMap<>();
      cfg.put("ipv4.address", address);
      cfg.put("ipv4.nat", Boolean.toString(nat));
      cfg.put("ipv4.dhcp", Boolean.toString(dhcp));
      cfg.put("ipv6.address", "none");
      cfg.put("dns.mode", dns ? "managed" : "none");
      cfg.putAll(Meta.tags(sandbox, logical));
      rest.call(null, "POST", "/1.0/networks", Map.of("name", physical, "type", "bridge", "config", cfg,
          "description", "agentcompute " + sandbox + "/" + logical));
      return Network.of(logical, "bridge", address);
    } finally {
      allocation.unlock();
    }
  }

  /** Every IPv4 subnet of every managed network, in every project. */
  private List<Ipv4Cidr> usedSubnets() {
    List<Ipv4Cidr> used = new ArrayList<>();
    for (JsonNode network : rest.get(null, "/1.0/networks?recursion=1&all-projects=true")) {
      for (String key : List.of("ipv4.address", "volatile.network.ipv4.address", "ipv4.routes")) {
        for (String value : network.path("config").path(key).asString("").split(",")) {
          Ipv4Cidr.parse(value.trim()).ifPresent(used::add);
        }
      }
    }
    return used;
  }

  /** The sandbox's bridges by logical name, from the tags on the networks themselves. */
  Map<String, String> taggedWith(String sandbox) {
    Map<String, String> result = new LinkedHashMap<>();
    for (JsonNode network : rest.get(null, "/1.0/networks?recursion=1")) {
      JsonNode cfg = network.path("config");
      if (sandbox.equals(cfg.path(Meta.SANDBOX).asString("")) && "1".equals(cfg.path(Meta.VERSION).asString(""))) {
        result.put(cfg.path(Meta.NAME).asString(""), network.path("name").asString());
      }
    }
    return result;
  }

  List<Network> list(String sandbox) {
    List<Network> result = new ArrayList<>();
    for (JsonNode network : rest.get(null, "/1.0/networks?recursion=1")) {
      JsonNode cfg = network.path("config");
      if (sandbox.equals(cfg.path(Meta.SANDBOX).asString("")) && "1".equals(cfg.path(Meta.VERSION).asString(""))) {
        result.add(Network.of(cfg.path(Meta.NAME).asString(""), "bridge", cfg.path("ipv4.address").asString("")));
      }
    }
    return result;
  }

  Optional<String> physicalName(String sandbox, String logical) {
    return Optional.ofNullable(taggedWith(sandbox).get(logical));
  }

  /** Deletes a bridge after checking it belongs to {@code sandbox}; a missing bridge is fine. */
  void delete(String sandbox, String physical) {
    JsonNode network;
    try {
      network = rest.get(null, "/1.0/networks/" + IncusRest.encode(physical));
    } catch (BackendException e) {
      if (e.isNotFound()) {
        return;
      }
      throw e;
    }
    String owner = network.path("config").path(Meta.SANDBOX).asString("");
    if (!owner.equals(sandbox)) {
      throw new BackendException(Kind.FAILED,
          "refusing to modify bridge " + physical + " not owned by sandbox " + sandbox);
    }
    IncusBackend.ignoreNotFound(() -> rest.call(null, "DELETE", "/1.0/networks/" + IncusRest.encode(physical), null));
  }
}
