package dev.agentcompute.capabilities.incus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.model.Ipv4Cidr;
import dev.agentcompute.capabilities.model.Timestamps;
import dev.agentcompute.capabilities.platform.ReaperLease;
import dev.agentcompute.capabilities.reaper.Reaper;
import dev.agentcompute.capabilities.service.SandboxService;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusIdentity;
import dev.agentcompute.incus.Network;
import dev.agentcompute.incus.ServerInfo;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two agentcompute servers, active-active on the real three-member cluster (dev/cluster up;
 * tests/cluster/run), behind no load balancer: each dials a different member over HTTPS (accl-m1
 * and accl-m2) with its own client certificate, and each has its own service stack (IncusPlatform,
 * ComputeRuntime, reaper) built from its own configuration as the server builds a generation. The
 * only things they share are in Incus: the cross-server lock ({@link ProjectMutex}), the reaper
 * lease ({@link IncusReaperLease}) and subnet claims ({@link SubnetClaims}).
 *
 * <p>What this is not: two server processes on two machines. The two stacks run in this one test
 * JVM on the test machine (the member containers have no JDK); nothing in a stack is shared with
 * the other but the JVM itself, and neither stack's lock, lease or claim has an in-process path to
 * the other's (each {@link ProjectMutex} and {@link SubnetClaims} has its own local lock, so only
 * what is in Incus stands between them). The reaper's holder name is per process in the product
 * ({@code ComputeRuntime}); here each stack's reaper is built with its own holder, over that
 * stack's sandbox service and Incus lease, as {@code ComputeRuntime.prepare} builds it.
 *
 * <p>The second certificate is generated here and trusted through the Incus API by the first
 * (dev/cluster's) identity; the trust is removed at the end.
 */
class ClusterServersIT {
  private static final String OPERATOR = "operator";

  /** The test's reapers: a scan a second, a lease of four (the product: 30 s and 90 s). */
  private static final Duration INTERVAL = Duration.ofSeconds(1);

  private static final Duration LEASE = Duration.ofSeconds(4);

  private static ClusterStack stack;
  private static IncusClient admin;
  private static String secondTrust;
  private static ServerStack a;
  private static ServerStack b;
  private final ConcurrentLinkedQueue<String[]> sandboxes = new ConcurrentLinkedQueue<>();

  /** One server: its client (its member, its certificate), platform and compute runtime. */
  private record ServerStack(
      String name,
      String member,
      IncusIdentity identity,
      IncusClient client,
      IncusPlatform platform,
      ComputeRuntime runtime)
      implements AutoCloseable {

    static ServerStack start(String name, int memberIndex, IncusIdentity identity) {
      String member = stack.members().get(memberIndex);
      URI url =
          URI.create("https://" + stack.addresses().get(memberIndex) + ":" + stack.url().getPort());
      IncusClient client = stack.client(url, identity);
      ComputeConfig config = stack.config(member);
      IncusPlatform platform = IncusPlatform.over(client, config);
      // As ComputeGeneration builds it: the platform's Incus lease, the reaper not started.
      ComputeRuntime runtime =
          ComputeRuntime.prepare(
              config,
              List.of(platform.platform()),
              platform.reaperLease(),
              Clock.systemUTC(),
              platform);
      return new ServerStack(name, member, identity, client, platform, runtime);
    }

    SandboxService sandboxes() {
      return runtime.compute().sandboxes();
    }

    @Override
    public void close() {
      try {
        runtime.close();
      } finally {
        client.close();
      }
    }
  }

  @BeforeAll
  static void twoServers() {
    stack = ClusterStack.fromEnvironment().orElse(null);
    Assumptions.assumeTrue(
        stack != null,
        "no cluster: INCUS_CLUSTER_CONF does not name dev/cluster's cluster.conf"
            + " (tests/cluster/run sets it after dev/cluster up)");
    admin = stack.client();
    IncusIdentity first =
        IncusIdentity.fromPem(stack.clientCert().toString(), stack.clientKey().toString());
    IncusIdentity second = IncusIdentity.generate("agentcompute-tests-second");
    secondTrust = admin.server().trust("agentcompute-tests-second", second.certificate());
    a = ServerStack.start("server-a", 0, first);
    b = ServerStack.start("server-b", 1, second);
  }

  @AfterAll
  static void stopServers() {
    try {
      for (ServerStack s : new ServerStack[] {b, a}) {
        if (s != null) {
          s.close();
        }
      }
    } finally {
      if (secondTrust != null) {
        IncusFailures.ignoreNotFound(() -> admin.server().untrust(secondTrust));
      }
      if (admin != null) {
        admin.close();
      }
    }
  }

  @AfterEach
  void deleteSandboxes() {
    for (String[] s : sandboxes) {
      ServerStack server = s[0].equals(a.name()) ? a : b;
      try {
        server.sandboxes().delete(s[1]);
      } catch (RuntimeException e) {
        if (!String.valueOf(e.getMessage()).contains("not found")) {
          throw e;
        }
      }
    }
    sandboxes.clear();
    // Deletions finish in the background (bridges leave every member): awaited, so the cluster
    // is clean for the next test and the other suites.
    a.sandboxes().awaitDeletions(Duration.ofSeconds(90));
    b.sandboxes().awaitDeletions(Duration.ofSeconds(90));
  }

  private String create(ServerStack server, String prefix) {
    String name = prefix + "-" + Long.toHexString(ThreadLocalRandom.current().nextInt() & 0xffffL);
    sandboxes.add(new String[] {server.name(), name});
    server.sandboxes().create(OPERATOR, name, "incus", 60, false);
    return name;
  }

  @Test
  void eachServerDialsItsOwnMemberWithItsOwnCertificate() {
    ServerInfo onA = a.client().server().info();
    ServerInfo onB = b.client().server().info();
    assertThat(onA.trusted()).isTrue();
    assertThat(onB.trusted()).isTrue();
    assertThat(onA.environment().serverName()).isEqualTo(a.member());
    assertThat(onB.environment().serverName()).isEqualTo(b.member());
    // Incus names a TLS client by its certificate's fingerprint.
    assertThat(onA.authUserName()).isEqualTo(a.identity().fingerprint());
    assertThat(onB.authUserName()).isEqualTo(b.identity().fingerprint());
    assertThat(a.identity().fingerprint()).isNotEqualTo(b.identity().fingerprint());
    assertThat(a.member()).isNotEqualTo(b.member());
  }

  /**
   * Both servers extend one sandbox at the same moment, round after round. Extend sets the expiry
   * to now + TTL unless it is later already; each round asks for more than the last (five and ten
   * minutes more, the larger TTL on either server in turn). After each round the stored expiry must
   * be the later of the two answers: a lost update (one server's write made from a read the other's
   * write overtook) leaves the earlier one, which the next round would hide, so every round is
   * checked.
   */
  @Test
  void concurrentExtendsFromBothServersLoseNoUpdate() throws Exception {
    String sb = create(a, "clx");
    int rounds = 12;
    List<String> lost = new ArrayList<>();
    CyclicBarrier start = new CyclicBarrier(2);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int r = 0; r < rounds; r++) {
        long lower = 70 + 10L * r;
        long upper = lower + 5;
        List<Future<SandboxService.Extension>> calls = new ArrayList<>();
        for (ServerStack server : List.of(a, b)) {
          long ttl = (server == a) == (r % 2 == 0) ? upper : lower;
          calls.add(
              pool.submit(
                  () -> {
                    start.await();
                    return server.sandboxes().extend(sb, ttl);
                  }));
        }
        List<SandboxService.Extension> done = new ArrayList<>();
        for (Future<SandboxService.Extension> call : calls) {
          done.add(call.get());
        }
        Instant latest =
            done.stream()
                .map(SandboxService.Extension::expiresAt)
                .max(Comparator.naturalOrder())
                .orElseThrow();
        Instant stored = b.sandboxes().get(sb).sandbox().expiresAt();
        if (!stored.equals(latest)) {
          lost.add(
              "round "
                  + r
                  + ": stored "
                  + Timestamps.metadata(stored)
                  + ", answered "
                  + done.stream().map(e -> Timestamps.metadata(e.expiresAt())).toList());
        }
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(lost).as("rounds whose later expiry was lost").isEmpty();
    assertThat(a.sandboxes().get(sb).sandbox().expiresAt())
        .isEqualTo(b.sandboxes().get(sb).sandbox().expiresAt());
  }

  /**
   * Both servers create bridge sandboxes at once. Each server's first choice is the pool's first
   * free block, so they collide; the claims part them: every bridge keeps its own /24 of the
   * cluster's pool, overlapping no other network in the cluster. The step that creates a bridge on
   * every member goes to each server's own member, one server at a time ({@link NetworkCreations}):
   * before that lock, this test left two members' Incus waiting for each other for good.
   */
  @Test
  void concurrentCreatesFromBothServersNeverShareASubnet() throws Exception {
    int perServer = 3;
    CyclicBarrier start = new CyclicBarrier(2 * perServer);
    ExecutorService pool = Executors.newFixedThreadPool(2 * perServer);
    List<String> made = new ArrayList<>();
    try {
      List<Future<String>> runs = new ArrayList<>();
      for (int i = 0; i < 2 * perServer; i++) {
        ServerStack server = i % 2 == 0 ? a : b;
        runs.add(
            pool.submit(
                () -> {
                  start.await();
                  return create(server, "clsub");
                }));
      }
      for (Future<String> run : runs) {
        made.add(run.get());
      }
    } finally {
      pool.shutdownNow();
    }
    Map<String, String> subnets = new java.util.LinkedHashMap<>(); // bridge -> ipv4.address
    for (String sb : made) {
      String bridge = new SandboxProjects(admin, a.member()).reservations(sb).get("default");
      Network network = admin.networks().get(bridge);
      assertThat(network.status()).as(bridge).isEqualTo("Created");
      subnets.put(bridge, network.config().get("ipv4.address"));
    }
    List<Ipv4Cidr> blocks =
        subnets.values().stream().map(s -> Ipv4Cidr.parse(s).orElseThrow()).toList();
    assertThat(blocks)
        .as("the sandboxes' subnets %s", subnets)
        .hasSize(2 * perServer)
        .allSatisfy(c -> assertThat(stack.bridgeSubnets().pool().overlaps(c)).isTrue());
    for (int i = 0; i < blocks.size(); i++) {
      for (int j = i + 1; j < blocks.size(); j++) {
        assertThat(blocks.get(i).overlaps(blocks.get(j)))
            .as("%s and %s (%s)", blocks.get(i), blocks.get(j), subnets)
            .isFalse();
      }
    }
    // Nor does any other network of the cluster overlap one of them.
    for (Network other : admin.networks().list()) {
      if (subnets.containsKey(other.name())) {
        continue;
      }
      Ipv4Cidr.parse(String.valueOf(other.config().get("ipv4.address")))
          .ifPresent(
              c ->
                  assertThat(blocks).as("network %s (%s)", other.name(), c).noneMatch(c::overlaps));
    }
  }

  /** A lease that records every acquisition, and can play a killed server (it never releases). */
  private static final class Recorded implements ReaperLease {
    record Take(String holder, Instant now, boolean held) {}

    private final ReaperLease lease;
    private final List<Take> takes;
    private volatile boolean killed;

    Recorded(ReaperLease lease, List<Take> takes) {
      this.lease = lease;
      this.takes = takes;
    }

    @Override
    public boolean acquire(String holder, Instant now, Duration period) {
      boolean held = lease.acquire(holder, now, period);
      takes.add(new Take(holder, now, held));
      return held;
    }

    @Override
    public void release(String holder) {
      if (!killed) {
        lease.release(holder);
      }
    }
  }

  /**
   * Both servers run their reapers (a scan a second, a lease of four): exactly one scans, the
   * holder named in the lease. The holder is then killed (its scans stop and it never releases):
   * the other takes over once the lease has run out and within one scan after, never while it still
   * ran. Then the new holder stops cleanly (it releases), and the first, restarted, takes over at
   * its next scan.
   */
  @Test
  void exactlyOneReaperIsActiveAndTheOtherTakesOverWithinTheLease() throws Exception {
    List<Recorded.Take> takes = new CopyOnWriteArrayList<>();
    String holderA = "server-a@" + a.member() + "/" + Long.toHexString(System.nanoTime());
    String holderB = "server-b@" + b.member() + "/" + Long.toHexString(System.nanoTime());
    Recorded leaseA = new Recorded(a.platform().reaperLease(), takes);
    Recorded leaseB = new Recorded(b.platform().reaperLease(), takes);
    Reaper reaperA = new Reaper(a.sandboxes(), INTERVAL, leaseA, LEASE, holderA);
    Reaper reaperB = new Reaper(b.sandboxes(), INTERVAL, leaseB, LEASE, holderB);
    try {
      reaperA.start();
      reaperB.start();
      awaitTakes(takes, holderA, 5);
      awaitTakes(takes, holderB, 5);
      Set<String> winners =
          takes.stream()
              .filter(Recorded.Take::held)
              .map(Recorded.Take::holder)
              .collect(Collectors.toSet());
      assertThat(winners).as("holders of the lease over %s", takes).hasSize(1);
      String first = winners.iterator().next();
      boolean aFirst = first.equals(holderA);
      assertThat(admin.projects().get("default").config())
          .containsEntry(IncusReaperLease.HOLDER, first);
      assertThat(reaperA.active()).isEqualTo(aFirst);
      assertThat(reaperB.active()).isEqualTo(!aFirst);

      // The holder is killed: no more scans, no release.
      Reaper dead = aFirst ? reaperA : reaperB;
      (aFirst ? leaseA : leaseB).killed = true;
      dead.close();
      String second = aFirst ? holderB : holderA;
      Instant lastHeld = lastHeld(takes, first);
      Recorded.Take takeover = awaitHeld(takes, second, LEASE.plus(Duration.ofSeconds(20)));
      Duration gap = Duration.between(lastHeld, takeover.now());
      assertThat(gap)
          .as("from the killed holder's last renewal to the takeover")
          .isGreaterThanOrEqualTo(LEASE)
          .isLessThanOrEqualTo(LEASE.plus(INTERVAL).plus(Duration.ofSeconds(5)));
      assertThat(admin.projects().get("default").config())
          .containsEntry(IncusReaperLease.HOLDER, second);

      // The new holder stops cleanly: it releases, and the restarted first takes over at once.
      Reaper survivor = aFirst ? reaperB : reaperA;
      (aFirst ? leaseA : leaseB).killed = false;
      takes.clear();
      dead.start();
      survivor.close();
      Instant released = Instant.now();
      Recorded.Take back = awaitHeld(takes, first, INTERVAL.plus(Duration.ofSeconds(10)));
      assertThat(Duration.between(released, back.now()))
          .as("a released lease is taken at the next scan, not after the lease")
          .isLessThan(LEASE);
      assertThat(takes.stream().filter(t -> t.held() && t.holder().equals(second)).toList())
          .as("the stopped holder's scans after its release")
          .allSatisfy(t -> assertThat(t.now()).isBefore(released));
    } finally {
      reaperA.close();
      reaperB.close();
      ReaperLease lease = a.platform().reaperLease();
      lease.release(holderA);
      lease.release(holderB);
    }
    assertThat(admin.projects().get("default").config())
        .doesNotContainKey(IncusReaperLease.HOLDER)
        .doesNotContainKey(IncusReaperLease.UNTIL);
  }

  private static void awaitTakes(List<Recorded.Take> takes, String holder, int count)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (takes.stream().filter(t -> t.holder().equals(holder)).count() < count) {
      assertThat(System.nanoTime()).as("%s's %d scans", holder, count).isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  private static Instant lastHeld(List<Recorded.Take> takes, String holder) {
    return takes.stream()
        .filter(t -> t.held() && t.holder().equals(holder))
        .map(Recorded.Take::now)
        .max(Comparator.naturalOrder())
        .orElseThrow();
  }

  private static Recorded.Take awaitHeld(List<Recorded.Take> takes, String holder, Duration limit)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (true) {
      for (Recorded.Take t : takes) {
        if (t.held() && t.holder().equals(holder)) {
          return t;
        }
      }
      assertThat(System.nanoTime())
          .as("%s taking the lease within %d s; seen %s", holder, limit.toSeconds(), takes)
          .isLessThan(deadline);
      Thread.sleep(50);
    }
  }
}
