package dev.agentcompute.capabilities.incus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.model.AgentFacingException;
import dev.agentcompute.capabilities.model.Ipv4Cidr;
import dev.agentcompute.capabilities.model.SubnetPool;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.incus.NetworkSpec;
import dev.agentcompute.incus.Networks;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Subnet claims against the real incusd, with "another server" played by a second {@link
 * SubnetClaims} (its own lock) or by a bridge created behind the claim's back. The pool is the top
 * /19 of the tests' 10.211.0.0/16, which the other ITs (first free block upwards) do not reach.
 */
class SubnetClaimsIT {
  private static final SubnetPool POOL = SubnetPool.parse("10.211.224.0/19", 24);

  private IncusClient client;
  private Networks networks;
  private final String prefix =
      "acc" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
  private final ConcurrentLinkedQueue<String> made = new ConcurrentLinkedQueue<>();

  @BeforeEach
  void connect() {
    client = LocalIncus.client();
    networks = client.networks();
  }

  @AfterEach
  void removeNetworks() {
    for (String name : made) {
      delete(name);
    }
    client.close();
  }

  /** Deletes a bridge, through Incus' own races while other bridges come and go (IncusRaces). */
  private void delete(String name) {
    IncusRaces.retried(
        "delete " + name, () -> IncusFailures.ignoreNotFound(() -> networks.delete(name)));
  }

  private SubnetClaims server() {
    return new SubnetClaims(networks, POOL, "no-such-uplink");
  }

  private void bridge(String name, String address, boolean dnsmasq) {
    made.add(name);
    NetworkSpec spec =
        new NetworkSpec(
            name,
            "bridge",
            "SubnetClaimsIT",
            Map.of(
                "ipv4.address",
                address,
                "ipv4.nat",
                "false",
                "ipv4.dhcp",
                Boolean.toString(dnsmasq),
                "ipv6.address",
                "none",
                "dns.mode",
                dnsmasq ? "managed" : "none"));
    IncusRaces.retried("create " + name, () -> networks.create(spec));
  }

  private String claimBridge(SubnetClaims claims, String explicit, String name, Runnable before) {
    AtomicInteger attempts = new AtomicInteger();
    return claims.claim(
        explicit,
        new SubnetClaims.Claimant("default", name),
        address -> {
          if (attempts.getAndIncrement() == 0) {
            before.run();
          }
          bridge(name, address, false);
          return address;
        },
        () -> delete(name));
  }

  private String subnetOf(String name) {
    return networks.get(name).config().get("ipv4.address");
  }

  @Test
  void aBlockTakenBetweenTheReadAndTheCreateIsGivenUpAndAnotherClaimed() {
    String rival = prefix + "r";
    String mine = prefix + "m";
    AtomicInteger creations = new AtomicInteger();
    List<String> tried = new ArrayList<>();
    SubnetClaims claims = server();
    String address =
        claims.claim(
            null,
            new SubnetClaims.Claimant("default", mine),
            a -> {
              tried.add(a);
              if (creations.getAndIncrement() == 0) {
                bridge(rival, a, false); // another server, without dnsmasq: Incus accepts both
              }
              bridge(mine, a, false);
              return a;
            },
            () -> delete(mine));

    assertThat(creations).hasValue(2);
    assertThat(subnetOf(rival)).isEqualTo(tried.getFirst());
    assertThat(address).isEqualTo(tried.getLast()).isEqualTo(subnetOf(mine));
    assertThat(
            Ipv4Cidr.parse(address)
                .orElseThrow()
                .overlaps(Ipv4Cidr.parse(subnetOf(rival)).orElseThrow()))
        .isFalse();
  }

  @Test
  void aGatewayAnotherDnsmasqHoldsIsRetriedOnAnotherBlock() {
    String rival = prefix + "r";
    String mine = prefix + "m";
    AtomicInteger creations = new AtomicInteger();
    List<String> failures = new ArrayList<>();
    String address =
        server()
            .claim(
                null,
                new SubnetClaims.Claimant("default", mine),
                a -> {
                  if (creations.getAndIncrement() == 0) {
                    bridge(rival, a, true);
                  }
                  try {
                    bridge(mine, a, true);
                  } catch (IncusException e) {
                    failures.add(e.getMessage());
                    throw e;
                  }
                  return a;
                },
                () -> delete(mine));

    assertThat(failures).singleElement().asString().contains("Address already in use");
    assertThat(address).isNotEqualTo(subnetOf(rival)).isEqualTo(subnetOf(mine));
  }

  @Test
  void anExplicitSubnetClaimedMeanwhileIsRefusedAndLeavesNoNetwork() {
    String rival = prefix + "r";
    String mine = prefix + "m";
    Ipv4Cidr free = freeBlock();
    String cidr = free.toString();
    assertThatThrownBy(() -> claimBridge(server(), cidr, mine, () -> bridge(rival, cidr, false)))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage(
            "cidr \"" + cidr + "\" overlaps a subnet already in use (" + free.network() + ")");
    assertThat(networks.names()).doesNotContain(mine).contains(rival);
  }

  /** A block of the pool no network holds now, chosen at random. */
  private Ipv4Cidr freeBlock() {
    List<Ipv4Cidr> used = new ArrayList<>();
    for (var allocation : networks.allocations(true)) {
      if (allocation.address() != null && allocation.address().contains("/")) {
        Ipv4Cidr.parse(allocation.address()).ifPresent(used::add);
      }
    }
    return POOL.randomFree(used, ThreadLocalRandom.current()).orElseThrow();
  }

  /** Two servers, each with its own lock, create 6 bridges apiece at once: 12 distinct blocks. */
  @Test
  void twoServersCreatingAtOnceNeverKeepTheSameBlock() throws Exception {
    List<SubnetClaims> servers = List.of(server(), server());
    CyclicBarrier start = new CyclicBarrier(12);
    ExecutorService pool = Executors.newFixedThreadPool(12);
    try {
      List<Future<String>> results = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        SubnetClaims claims = servers.get(i % 2);
        String name = prefix + "c" + i;
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  return claimBridge(claims, null, name, () -> {});
                }));
      }
      Set<String> addresses = new HashSet<>();
      for (Future<String> result : results) {
        addresses.add(result.get());
      }
      assertThat(addresses).hasSize(12);
      for (int i = 0; i < 12; i++) {
        assertThat(addresses).contains(subnetOf(prefix + "c" + i));
      }
    } finally {
      // Every creation ends before the cleanup runs, so none is left behind.
      pool.shutdown();
      pool.awaitTermination(2, java.util.concurrent.TimeUnit.MINUTES);
    }
  }
}
