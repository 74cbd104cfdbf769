package dev.agentcompute.capabilities.hostile;

import dev.agentcompute.incus.ExecRequest;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.incus.InstanceSpec;
import dev.agentcompute.incus.NetworkSpec;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A machine outside every sandbox: a plain Incus bridge (no agentcompute ACL) off the suite's pool,
 * with one busybox container serving a secret on port 8000. With NAT it stands for "the outside
 * world" a sandbox may reach; once its subnet is a protected range it stands for a management host.
 */
final class Victim implements AutoCloseable {
  static final int PORT = 8000;
  static final String SECRET = "secret-of-victim";

  private final IncusClient incus;
  final String bridge;
  final String container;
  final String subnet;
  final String address;

  private Victim(IncusClient incus, String bridge, String container, int octet) {
    this.incus = incus;
    this.bridge = bridge;
    this.container = container;
    this.subnet = "10.211." + octet + ".0/24";
    this.address = "10.211." + octet + ".10";
  }

  /** A bridge on a free 10.211.200-250.0/24 and its container, serving. */
  static Victim start(IncusClient incus) {
    String suffix = Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffL);
    for (int attempt = 0; ; attempt++) {
      int octet = 200 + ThreadLocalRandom.current().nextInt(51);
      Victim v = new Victim(incus, "hxv" + suffix, "hxv-" + suffix, octet);
      Map<String, String> cfg = new LinkedHashMap<>();
      cfg.put("ipv4.address", "10.211." + octet + ".1/24");
      cfg.put("ipv4.nat", "false");
      cfg.put("ipv4.dhcp", "false");
      cfg.put("ipv6.address", "none");
      try {
        incus.networks().create(new NetworkSpec(v.bridge, "bridge", "hostile suite victim", cfg));
      } catch (IncusException e) {
        if (attempt < 5) {
          continue; // the block is taken: another one
        }
        throw e;
      }
      try {
        v.boot();
        return v;
      } catch (RuntimeException e) {
        v.close();
        throw e;
      }
    }
  }

  private void boot() {
    Map<String, Map<String, String>> devices = new LinkedHashMap<>();
    devices.put("eth0", Map.of("type", "nic", "network", bridge, "name", "eth0"));
    incus
        .instances()
        .create(
            InstanceSpec.container(container, InstanceSpec.Source.imageAlias("busybox"))
                .withDevices(devices));
    incus.instances().start(container);
    // A static address: busybox's DHCP client gets none here, so it is set by hand.
    var result =
        incus
            .instances()
            .exec(
                container,
                ExecRequest.of(
                    Duration.ofSeconds(30),
                    "sh",
                    "-c",
                    "ip addr add "
                        + address
                        + "/24 dev eth0; ip link set eth0 up; ip route add default via "
                        + subnet.replace(".0/24", ".1")
                        + "; nc -ll -p "
                        + PORT
                        + " -e /bin/echo "
                        + SECRET
                        + " </dev/null >/dev/null 2>&1 &"));
    if (result.exitCode() != 0) {
      throw new AssertionError("victim did not start serving: " + result.stderrText());
    }
  }

  @Override
  public void close() {
    try {
      incus.instances().forceDelete(container);
    } catch (IncusException e) {
      // not created
    }
    try {
      incus.networks().delete(bridge);
    } catch (IncusException e) {
      // not created
    }
  }
}
