package dev.agentcompute.incus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A bridge network with an explicit subnet: CRUD, DHCP leases, forwards, peers, allocations. */
class NetworksIT {

  private IncusClient client;
  private String bridge;
  private String subnet;
  private String project;

  @BeforeEach
  void createBridge() {
    client = IncusTestDaemon.client();
    bridge = IncusTestDaemon.name("it");
    // Other suites pick random 10.203.X subnets too: on the rare overlap, pick another.
    for (int attempt = 0; ; attempt++) {
      subnet = IncusTestDaemon.subnet();
      try {
        client
            .networks()
            .create(
                NetworkSpec.bridge(
                    bridge,
                    Map.of(
                        "ipv4.address",
                        subnet,
                        "ipv4.nat",
                        "true",
                        "ipv4.dhcp",
                        "true",
                        "ipv6.address",
                        "none",
                        "user.agentcompute.name",
                        "test")));
        return;
      } catch (IncusException.Failed e) {
        if (attempt == 3) {
          throw e;
        }
      }
    }
  }

  @AfterEach
  void deleteEverything() {
    try {
      if (project != null) {
        IncusTestDaemon.deleteProject(client, project);
      }
    } finally {
      try {
        client.networks().delete(bridge);
      } finally {
        client.close();
      }
    }
  }

  @Test
  void bridgeCrudWithETag() {
    Network network = client.networks().get(bridge);
    assertThat(network.type()).isEqualTo("bridge");
    assertThat(network.managed()).isTrue();
    assertThat(network.config())
        .containsEntry("ipv4.address", subnet)
        .containsEntry("ipv6.address", "none");
    assertThat(client.networks().list()).extracting(Network::name).contains(bridge);
    NetworkState state = client.networks().state(bridge);
    assertThat(state.state()).isEqualTo("up");
    assertThat(state.ovn()).as("a bridge has no OVN side").isNull();

    Tagged<Network> tagged = client.networks().getTagged(bridge);
    Map<String, String> config = new HashMap<>(tagged.value().config());
    config.put("user.agentcompute.name", "renamed");
    client.networks().update(bridge, "described", config, tagged.etag());
    Network updated = client.networks().get(bridge);
    assertThat(updated.description()).isEqualTo("described");
    assertThat(updated.config()).containsEntry("user.agentcompute.name", "renamed");
    assertThatThrownBy(() -> client.networks().update(bridge, "stale", config, tagged.etag()))
        .isInstanceOf(IncusException.PreconditionFailed.class);
    assertThatThrownBy(
            () ->
                client
                    .networks()
                    .create(
                        NetworkSpec.bridge(
                            bridge,
                            Map.of(
                                "ipv4.address", IncusTestDaemon.subnet(), "ipv6.address", "none"))))
        .isInstanceOf(IncusException.Conflict.class);
  }

  @Test
  void containerOnTheBridgeGetsALease() {
    project = IncusTestDaemon.createSharingProject(client);
    IncusClient scoped = client.inProject(project);
    scoped
        .instances()
        .create(
            InstanceSpec.container("leaser", InstanceSpec.Source.imageAlias("busybox"))
                .withDevices(
                    Map.of("eth0", Map.of("type", "nic", "network", bridge, "name", "eth0")))
                .startingImmediately());
    List<NetworkLease> leases = List.of();
    long end = System.nanoTime() + Duration.ofSeconds(45).toNanos();
    while (System.nanoTime() < end) {
      // Leases are filtered by project: the instance's project sees its lease, default does not.
      leases = scoped.networks().leases(bridge);
      if (leases.stream().anyMatch(l -> "leaser".equals(l.hostname()))) {
        break;
      }
      sleep();
    }
    String prefix = subnet.substring(0, subnet.lastIndexOf('.') + 1);
    assertThat(leases)
        .anySatisfy(
            lease -> {
              assertThat(lease.hostname()).isEqualTo("leaser");
              assertThat(lease.address()).startsWith(prefix);
              assertThat(lease.hwaddr()).isNotBlank();
            });
    assertThat(client.networks().leases(bridge)).noneMatch(l -> "leaser".equals(l.hostname()));
    Instance leaser = scoped.instances().get("leaser");
    assertThat(leaser.state().network()).containsKey("eth0");
  }

  @Test
  void forwardsAndAllocations() {
    String listen = "192.0.2." + (10 + (int) (Math.random() * 200));
    String target = subnet.substring(0, subnet.lastIndexOf('.') + 1) + "50";
    client
        .networks()
        .createForward(
            bridge,
            new NetworkForward(
                listen,
                "test forward",
                Map.of("user.agentcompute.name", "fwd"),
                List.of(new NetworkForward.Port(null, "tcp", "8080", "80", target)),
                null));
    try {
      NetworkForward forward = client.networks().forward(bridge, listen);
      assertThat(forward.ports())
          .singleElement()
          .satisfies(
              p -> {
                assertThat(p.listenPort()).isEqualTo("8080");
                assertThat(p.targetAddress()).isEqualTo(target);
              });
      client
          .networks()
          .updateForward(
              bridge,
              forward.withPorts(
                  List.of(
                      forward.ports().getFirst(),
                      new NetworkForward.Port(null, "udp", "5353", "53", target))));
      assertThat(client.networks().forwards(bridge))
          .singleElement()
          .satisfies(
              f ->
                  assertThat(f.ports())
                      .extracting(NetworkForward.Port::protocol)
                      .containsExactly("tcp", "udp"));

      List<NetworkAllocation> allocations = client.networks().allocations(true);
      assertThat(allocations)
          .anySatisfy(
              a -> {
                assertThat(a.address()).isEqualTo(subnet);
                assertThat(a.usedBy()).isEqualTo("/1.0/networks/" + bridge);
                assertThat(a.type()).isEqualTo("network");
              });
      assertThat(allocations).anySatisfy(a -> assertThat(a.address()).isEqualTo(listen + "/32"));
    } finally {
      client.networks().deleteForward(bridge, listen);
    }
    assertThat(client.networks().forwards(bridge)).isEmpty();
    assertThatThrownBy(() -> client.networks().forward(bridge, listen))
        .isInstanceOf(IncusException.NotFound.class);
  }

  /**
   * Listing every project's allocations while other bridges come and go: Incus loads each network
   * it named a moment earlier and fails the whole listing when one is gone; the client lists again.
   */
  @Test
  void allocationsStayListableWhileNetworksAreDeleted() throws Exception {
    java.util.concurrent.atomic.AtomicBoolean done =
        new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.atomic.AtomicInteger churned =
        new java.util.concurrent.atomic.AtomicInteger();
    Thread churn =
        Thread.ofPlatform()
            .start(
                () -> {
                  while (!done.get()) {
                    String name = IncusTestDaemon.name("ch");
                    // No addresses at all: the churning bridges take no subnet.
                    client
                        .networks()
                        .create(
                            NetworkSpec.bridge(
                                name, Map.of("ipv4.address", "none", "ipv6.address", "none")));
                    client.networks().delete(name);
                    churned.incrementAndGet();
                  }
                });
    try {
      long deadline = System.nanoTime() + Duration.ofSeconds(8).toNanos();
      int listings = 0;
      while (System.nanoTime() < deadline) {
        assertThat(client.networks().allocations(true))
            .anySatisfy(a -> assertThat(a.address()).isEqualTo(subnet));
        listings++;
      }
      assertThat(listings).isPositive();
    } finally {
      done.set(true);
      churn.join(Duration.ofSeconds(30));
    }
    assertThat(churned.get()).as("bridges created and deleted meanwhile").isPositive();
  }

  @Test
  void peeringNeedsOvnAndSaysSo() {
    assertThatThrownBy(
            () ->
                client
                    .networks()
                    .createPeer(bridge, NetworkPeer.local("other", "default", "other", Map.of())))
        .isInstanceOf(IncusException.Failed.class)
        .hasMessageContaining("does not support peering");
    assertThatThrownBy(() -> client.networks().peers(bridge)).isInstanceOf(IncusException.class);
  }

  private static void sleep() {
    try {
      Thread.sleep(250);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
