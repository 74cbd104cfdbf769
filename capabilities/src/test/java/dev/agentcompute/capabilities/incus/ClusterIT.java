package dev.agentcompute.capabilities.incus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.adapter.instance.InstanceCapabilities;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.model.AgentFacingException;
import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.ExecRequest;
import dev.agentcompute.capabilities.model.ExecResult;
import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.NetworkPlan;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.model.SubnetPool;
import dev.agentcompute.capabilities.platform.ReaperLease;
import dev.agentcompute.capabilities.reaper.Reaper;
import dev.agentcompute.capabilities.service.InstanceService.CreateOptions;
import dev.agentcompute.capabilities.service.SandboxService;
import dev.agentcompute.incus.ClusterMember;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.incus.Network;
import dev.agentcompute.incus.NetworkSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * agentcompute on a real three-member Incus cluster (dev/cluster up; tests/cluster/run), over HTTPS
 * with a client certificate: placement by the members' state, bridge sandboxes defined on every
 * member, an OVN network spanning the members, and a member that stops and comes back
 * (docs/reference/incus-cluster.md). Skips, saying why, without {@code INCUS_CLUSTER_CONF}.
 */
class ClusterIT {
  private static final String OPERATOR = "operator";

  /** A stopped member shows Offline after cluster.offline_threshold (30 s) plus a heartbeat. */
  private static final Duration SETTLE = Duration.ofSeconds(90);

  private static ClusterStack stack;
  private static IncusClient client;
  private final List<AutoCloseable> opened = new ArrayList<>();
  private final List<String[]> sandboxes = new ArrayList<>(); // {member, name}

  @BeforeAll
  static void connect() {
    stack = ClusterStack.fromEnvironment().orElse(null);
    Assumptions.assumeTrue(
        stack != null,
        "no cluster: INCUS_CLUSTER_CONF does not name dev/cluster's cluster.conf"
            + " (tests/cluster/run sets it after dev/cluster up)");
    client = stack.client();
  }

  @AfterAll
  static void disconnect() {
    if (client != null) {
      client.close();
    }
  }

  /** Every test starts from a settled cluster: all members Online. */
  @BeforeEach
  void allMembersOnline() throws InterruptedException {
    awaitAllOnline("before the test");
  }

  private static void awaitAllOnline(String when) throws InterruptedException {
    ClusterStack.awaitStatuses(
        client,
        s ->
            s.size() == stack.members().size()
                && s.values().stream().allMatch(MemberLoad.ONLINE::equalsIgnoreCase),
        SETTLE,
        "not every member showed Online " + when);
  }

  @AfterEach
  void cleanUp() throws Exception {
    for (String[] s : sandboxes) {
      try (ComputeRuntime runtime = runtime(s[0], Duration.ZERO)) {
        runtime.compute().sandboxes().delete(s[1]);
      } catch (RuntimeException e) {
        if (!String.valueOf(e.getMessage()).contains("not found")) {
          throw e;
        }
      }
    }
    for (AutoCloseable c : opened.reversed()) {
      c.close();
    }
  }

  private ComputeRuntime runtime(String member, Duration ahead) {
    IncusPlatform platform = IncusPlatform.over(client, stack.config(member));
    return ComputeRuntime.prepare(
        stack.config(member),
        List.of(platform.platform()),
        ReaperLease.ALWAYS,
        Clock.offset(Clock.systemUTC(), ahead),
        platform);
  }

  private ComputeRuntime opened(String member, Duration ahead) {
    ComputeRuntime runtime = runtime(member, ahead);
    opened.add(runtime);
    return runtime;
  }

  private String sandbox(ComputeRuntime runtime, String member, String prefix) {
    String name = prefix + "-" + Long.toHexString(ThreadLocalRandom.current().nextInt() & 0xffffL);
    sandboxes.add(new String[] {member, name});
    runtime.compute().sandboxes().create(OPERATOR, name, "incus", 60, false);
    return name;
  }

  private static SandboxInstance busybox(ComputeRuntime runtime, String sandbox, String name) {
    return busybox(runtime, sandbox, name, null);
  }

  private static SandboxInstance busybox(
      ComputeRuntime runtime, String sandbox, String name, String host) {
    return runtime
        .compute()
        .instances()
        .create(
            sandbox, name, "busybox", new CreateOptions(null, null, null, null, null, host, true));
  }

  @SuppressWarnings("unchecked")
  private static <O> O call(ComputeRuntime runtime, String capability, Record input) {
    for (CapabilityDefinition<?, ?> c : runtime.capabilities()) {
      if (c.name().equals(capability)) {
        return (O) c.invoke(OPERATOR, input);
      }
    }
    throw new IllegalArgumentException("no capability " + capability);
  }

  private static Sandbox ovnSandbox(String member) {
    Instant now = Instant.now();
    return new Sandbox(
        "placement", "incus", now, now, OPERATOR, false, "", null, NetworkKind.OVN, member);
  }

  /** A member to stop: neither the database leader nor the one our client dials. */
  private static String expendableMember() {
    String dialled = stack.dialledMember(client);
    return client.cluster().members().stream()
        .filter(m -> !m.roles().contains("database-leader"))
        .map(ClusterMember::serverName)
        .filter(m -> !m.equals(dialled))
        .findFirst()
        .orElseThrow(() -> new AssertionError("every member leads or is dialled"));
  }

  @Test
  void automaticPlacementSkipsManualAndGroupSchedulersAndRefusesWhenNoMemberQualifies()
      throws Exception {
    List<String> members = stack.members();
    ClusterMembers cluster = new ClusterMembers(client);
    ClusterPlacement placement = new ClusterPlacement(cluster);
    // Every rule decides from what the cluster reports now: the choice is Placement's over it.
    List<MemberLoad> loads = cluster.loads(true);
    assertThat(loads).extracting(MemberLoad::name).containsExactlyInAnyOrderElementsOf(members);
    // (read: an unread state is 0; a member whose usage and cache pass its limit reads negative)
    assertThat(loads).allSatisfy(m -> assertThat(m.freeRam()).isNotZero());
    assertThat(placement.target(ovnSandbox(""), "")).get().isIn(members);
    try {
      stack.cli(
          "cluster", "set", stack.remote() + ":" + members.get(0), "scheduler.instance", "manual");
      stack.cli(
          "cluster", "set", stack.remote() + ":" + members.get(1), "scheduler.instance", "group");
      assertThat(placement.target(ovnSandbox(""), "")).contains(members.get(2));
      // an explicit host may name a manual member, in any case
      assertThat(placement.target(ovnSandbox(""), members.get(0).toUpperCase()))
          .contains(members.get(0));
      stack.cli(
          "cluster", "set", stack.remote() + ":" + members.get(2), "scheduler.instance", "manual");
      assertThatThrownBy(() -> placement.target(ovnSandbox(""), ""))
          .isInstanceOf(AgentFacingException.class)
          .hasMessageStartingWith("no online cluster member is available: ")
          .hasMessageContaining(members.get(0) + " (Online, scheduler.instance manual)")
          .hasMessageContaining(members.get(1) + " (Online, scheduler.instance group)");
      assertThatThrownBy(() -> placement.target(ovnSandbox(""), "nosuch"))
          .hasMessageStartingWith("host \"nosuch\" is not available; the cluster's members are ");
    } finally {
      for (String m : members) {
        stack.cli("cluster", "unset", stack.remote() + ":" + m, "scheduler.instance");
      }
    }
  }

  /**
   * Automatic placement follows the free RAM each member reports for itself. dev/cluster's members
   * are unprivileged containers with different memory limits, so Incus answers their sysinfo(2)
   * from their own memory cgroup: total_ram is the member's limit (no two agree; the host's figure
   * would be the same for all) and free_ram what is left of it. The member reporting the most free
   * RAM takes the instance (on a fresh cluster accl-m2, the largest limit); with
   * scheduler.instance=manual on it, the next one by free RAM does. Its config is restored.
   */
  @Test
  void automaticPlacementPicksTheMemberReportingTheMostFreeRam() throws Exception {
    List<String> members = stack.members();
    ClusterPlacement placement = new ClusterPlacement(new ClusterMembers(client));
    Map<String, Long> totals = new LinkedHashMap<>();
    for (String m : members) {
      totals.put(m, client.cluster().memberState(m).sysinfo().totalRam());
    }
    assertThat(new HashSet<>(totals.values()))
        .as("each member's total_ram is its own memory limit: %s", totals)
        .hasSize(members.size());

    String best = placedByFreeRam(placement, members);
    String member = stack.remote() + ":" + best;
    try {
      stack.cli("cluster", "set", member, "scheduler.instance", "manual");
      List<String> others = members.stream().filter(m -> !m.equals(best)).toList();
      assertThat(placedByFreeRam(placement, others)).isIn(others);
    } finally {
      stack.cli("cluster", "unset", member, "scheduler.instance");
    }
    assertThat(client.cluster().member(best).config()).doesNotContainKey("scheduler.instance");
  }

  /**
   * Places an instance automatically and checks that the choice is the candidate whose own {@code
   * /state} reports the most free RAM, read just before and just after. Free RAM moves: when the
   * two reads disagree on the leader the attempt is not counted (at most five attempts).
   */
  private static String placedByFreeRam(ClusterPlacement placement, List<String> candidates) {
    List<String> moved = new ArrayList<>();
    for (int attempt = 0; attempt < 5; attempt++) {
      Map<String, Long> before = freeRam(candidates);
      String chosen = placement.target(ovnSandbox(""), "").orElseThrow();
      Map<String, Long> after = freeRam(candidates);
      String leader = mostFreeRam(before);
      if (leader.equals(mostFreeRam(after))) {
        assertThat(chosen)
            .as("automatic placement among %s (free RAM %s, then %s)", candidates, before, after)
            .isEqualTo(leader);
        return chosen;
      }
      moved.add(before + " then " + after);
    }
    throw new AssertionError(
        "the member with the most free RAM changed during every placement: " + moved);
  }

  private static Map<String, Long> freeRam(List<String> members) {
    Map<String, Long> free = new LinkedHashMap<>();
    for (String m : members) {
      free.put(m, client.cluster().memberState(m).sysinfo().freeRam());
    }
    return free;
  }

  private static String mostFreeRam(Map<String, Long> free) {
    return free.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
  }

  /**
   * OVN spanning the members (dev/cluster ovn-up): one OVN sandbox, a busybox on each member by an
   * explicit host and one placed automatically; every instance pings every other one across the
   * members' Geneve tunnels, and fetches a page over TCP from the instance on the next member (TCP
   * needs each member's checksum offload watcher: the userspace datapath).
   */
  @Test
  void instancesOnEveryMemberOfOneOvnNetworkPingEachOther() throws InterruptedException {
    String uplink =
        stack
            .ovnUplinkNetwork()
            .orElseThrow(
                () ->
                    new AssertionError(
                        "cluster.conf names no ovn_uplink: OVN does not span the members"
                            + " (dev/ovn-stack up, then dev/cluster ovn-up)"));
    List<String> members = stack.members();
    ComputeConfig config =
        stack.config(members.get(0)).withDefaultNetworkKind(NetworkKind.OVN).withOvnUplink(uplink);
    IncusPlatform platform = IncusPlatform.over(client, config);
    ComputeRuntime runtime =
        ComputeRuntime.prepare(
            config, List.of(platform.platform()), ReaperLease.ALWAYS, Clock.systemUTC(), platform);
    opened.add(runtime);
    String sb = sandbox(runtime, members.get(0), "clovn");
    assertThat(client.inProject(Meta.project(sb)).networks().list())
        .filteredOn(n -> "ovn".equals(n.type()))
        .singleElement()
        .satisfies(n -> assertThat(n.config()).containsEntry("network", uplink));

    Map<String, String> addressOf = new LinkedHashMap<>();
    for (String member : members) {
      String name = "on-" + member;
      SandboxInstance created = busybox(runtime, sb, name, member);
      assertThat(created.location()).isEqualTo(member);
      addressOf.put(name, awaitIpv4(runtime, sb, name));
    }
    // Placement through the product: no host, so the member with the most free RAM takes it.
    SandboxInstance placed = busybox(runtime, sb, "placed");
    assertThat(placed.location()).isIn(members);
    addressOf.put("placed", awaitIpv4(runtime, sb, "placed"));
    assertThat(new HashSet<>(addressOf.values())).hasSize(addressOf.size());

    for (String from : addressOf.keySet()) {
      for (Map.Entry<String, String> to : addressOf.entrySet()) {
        if (!to.getKey().equals(from)) {
          assertThat(pings(runtime, sb, from, to.getValue(), 20))
              .as("%s pings %s (%s)", from, to.getKey(), to.getValue())
              .isTrue();
        }
      }
    }
    List<String> names = List.copyOf(addressOf.keySet());
    for (String name : names) {
      assertThat(
              exec(
                      runtime,
                      sb,
                      name,
                      "mkdir -p /tmp/w && echo "
                          + name
                          + " > /tmp/w/index.html"
                          + " && httpd -p 8080 -h /tmp/w")
                  .exit_code())
          .as("httpd in %s", name)
          .isZero();
    }
    for (int i = 0; i < members.size(); i++) {
      String from = names.get(i);
      String to = names.get((i + 1) % members.size());
      assertThat(fetches(runtime, sb, from, addressOf.get(to), 20))
          .as("%s fetches http://%s:8080/ from %s over TCP", from, addressOf.get(to), to)
          .isEqualTo(to + "\n");
    }
  }

  private static ExecResult exec(ComputeRuntime runtime, String sb, String name, String line) {
    return runtime
        .compute()
        .instances()
        .exec(sb, name, ExecRequest.shell(line).withTimeout(Optional.of(Duration.ofSeconds(10))));
  }

  /** The page, fetched until it answers, for up to {@code seconds}; the last output otherwise. */
  private static String fetches(
      ComputeRuntime runtime, String sb, String from, String address, int seconds) {
    long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
    ExecResult r;
    do {
      // (the image's busybox wget dies of SIGSEGV with -T: timeout bounds it instead)
      r = exec(runtime, sb, from, "timeout 5 wget -q -O - http://" + address + ":8080/");
      if (r.exit_code() == 0) {
        return r.stdout();
      }
    } while (System.nanoTime() < deadline);
    return "exit " + r.exit_code() + ": " + r.stdout() + r.stderr();
  }

  /** The instance's first IPv4 address on eth0 (its DHCP lease from OVN), waited for. */
  private static String awaitIpv4(ComputeRuntime runtime, String sb, String name)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      List<String> v4 =
          runtime
              .compute()
              .instances()
              .get(sb, name)
              .addresses()
              .getOrDefault("eth0", List.of())
              .stream()
              .filter(a -> a.indexOf(':') < 0)
              .toList();
      if (!v4.isEmpty()) {
        return v4.getFirst();
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(name + " got no IPv4 address from OVN within 60 s");
      }
      Thread.sleep(500);
    }
  }

  /** Pings of 1 s until one is answered, for up to {@code seconds} (a new port takes a moment). */
  private static boolean pings(
      ComputeRuntime runtime, String sb, String from, String address, int seconds) {
    long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
    do {
      if (exec(runtime, sb, from, "ping -c 1 -W 1 " + address).exit_code() == 0) {
        return true;
      }
    } while (System.nanoTime() < deadline);
    return false;
  }

  @Test
  void aBridgeSandboxIsDefinedOnEveryMemberAndItsInstancesStayOnItsMember()
      throws InterruptedException {
    String member = stack.members().get(2);
    ComputeRuntime runtime = opened(member, Duration.ZERO);
    String sb = sandbox(runtime, member, "clbr");
    Map<String, String> reservations = new SandboxProjects(client, member).reservations(sb);
    Network bridge = client.networks().get(reservations.get("default"));
    assertThat(bridge.status()).isEqualTo("Created");
    assertThat(bridge.locations()).containsExactlyInAnyOrderElementsOf(stack.members());
    assertThat(bridge.config().get("ipv4.address")).startsWith("10.213.");

    SandboxInstance web = busybox(runtime, sb, "web", member.toUpperCase());
    assertThat(web.location()).isEqualTo(member);
    InstanceCapabilities.GetOutput got =
        call(runtime, "instance.get", new InstanceCapabilities.RefInput(sb, "web"));
    assertThat(got.host()).isEqualTo(member);
    assertThat(got.status()).isEqualTo("Running");
    String other = stack.members().get(0);
    assertThatThrownBy(() -> busybox(runtime, sb, "elsewhere", other))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage("host \"" + other + "\" is not sandbox member \"" + member + "\"");

    // sandbox.delete returns once the sandbox is marked; the bridge goes with the rest in the
    // background (docs/reference/sandbox-pool.md), so its removal from every member is awaited.
    runtime.compute().sandboxes().delete(sb);
    awaitNetworkGone(bridge.name(), Duration.ofSeconds(90));
    assertThatThrownBy(() -> client.networks().get(bridge.name()))
        .isInstanceOf(IncusException.NotFound.class);
  }

  private static void awaitNetworkGone(String name, Duration limit) throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        client.networks().get(name);
      } catch (IncusException.NotFound gone) {
        return;
      }
      Thread.sleep(250);
    }
  }

  @Test
  void aBridgeLeftPendingIsResumedAndAnotherCreationsPendingNameIsAConflict() {
    String first = stack.members().get(0);
    String sb = "clres-" + Long.toHexString(ThreadLocalRandom.current().nextInt() & 0xffffL);
    SubnetPool pool = stack.bridgeSubnets();
    BridgeNetworks bridges =
        new BridgeNetworks(
            client,
            new ClusterMembers(client),
            new SubnetClaims(client.networks(), pool, "none"),
            new BridgeBaseline(client.networks(), client.networkAcls(), pool, List.of()),
            new BridgeFence(client.networkAcls(), pool),
            new NetworkCreations(
                new ClusterMembers(client), new ProjectMutex(client, Clock.systemUTC())));
    String resumed = bridges.freePhysicalName();
    String foreign = bridges.freePhysicalName();
    try {
      // An interrupted creation: defined on one member only, with this bridge's description.
      client
          .onTarget(first)
          .networks()
          .create(new NetworkSpec(resumed, "bridge", "agentcompute " + sb + "/default", Map.of()));
      bridges.create(sb, resumed, NetworkPlan.sandboxDefault());
      Network created = client.networks().get(resumed);
      assertThat(created.status()).isEqualTo("Created");
      assertThat(created.locations()).containsExactlyInAnyOrderElementsOf(stack.members());
      assertThat(created.config()).containsEntry(Meta.SANDBOX, sb);

      // A name another creation has defined (pending, with its description) is not taken over.
      client
          .onTarget(first)
          .networks()
          .create(new NetworkSpec(foreign, "bridge", "agentcompute other/default", Map.of()));
      assertThatThrownBy(
              () ->
                  bridges.create(
                      sb,
                      foreign,
                      new NetworkPlan("lan", NetworkKind.BRIDGE, null, true, true, true)))
          .isInstanceOf(IncusException.Conflict.class)
          .hasMessageContaining("is already defined on member");
      assertThat(client.networks().get(foreign).status()).isEqualTo("Pending");
      // ... nor may this sandbox delete it; its own bridge it may.
      assertThatThrownBy(() -> bridges.delete(sb, foreign))
          .hasMessageContaining("not owned by sandbox " + sb);
      bridges.delete(sb, resumed);
      assertThatThrownBy(() -> client.networks().get(resumed))
          .isInstanceOf(IncusException.NotFound.class);
    } finally {
      for (String name : List.of(resumed, foreign)) {
        IncusFailures.ignoreNotFound(() -> client.networks().delete(name));
        IncusFailures.ignoreNotFound(() -> client.networkAcls().delete(BridgeFence.name(name)));
      }
    }
  }

  @Test
  void aStoppedMemberIsNamedTheRestKeepsWorkingAndTheReaperDeletesItsSandboxOnceItIsBack()
      throws Exception {
    String victim = expendableMember();
    String survivor =
        stack.members().stream()
            .filter(m -> !m.equals(victim))
            .filter(m -> !m.equals(stack.dialledMember(client)))
            .findFirst()
            .orElse(stack.dialledMember(client));
    ComputeRuntime onVictim = opened(victim, Duration.ZERO);
    ComputeRuntime onSurvivor = opened(survivor, Duration.ZERO);
    String lost = sandbox(onVictim, victim, "cllost");
    String kept = sandbox(onSurvivor, survivor, "clkept");
    busybox(onVictim, lost, "v1");
    busybox(onSurvivor, kept, "s1");
    // The reaper of a server whose clock is two hours on: both sandboxes have expired for it.
    ComputeRuntime later = opened(survivor, Duration.ofHours(2));
    Reaper reaper = later.reaper();

    try (IncusClient host = LocalIncus.client()) {
      host.instances().stop(victim, true);
      try {
        ClusterStack.awaitStatuses(
            client,
            s ->
                !MemberLoad.ONLINE.equalsIgnoreCase(s.get(victim))
                    && s.entrySet().stream()
                        .filter(e -> !e.getKey().equals(victim))
                        .allMatch(e -> MemberLoad.ONLINE.equalsIgnoreCase(e.getValue())),
            SETTLE,
            victim + " stopped: it did not show Offline with the others Online");

        // Its instances: a clear unavailable error naming the member.
        assertThatThrownBy(() -> onVictim.compute().instances().get(lost, "v1"))
            .isInstanceOfSatisfying(
                BackendException.class,
                e -> {
                  assertThat(e.kind()).isEqualTo(BackendException.Kind.UNAVAILABLE);
                  assertThat(e.agentText())
                      .hasValueSatisfying(
                          t ->
                              assertThat(t)
                                  .startsWith(
                                      "instance \"v1\" is on cluster member \""
                                          + victim
                                          + "\", which is unavailable (status Offline)"));
                });
        // A new instance there, and an explicit host that is offline, are refused by placement.
        assertThatThrownBy(() -> busybox(onVictim, lost, "v2"))
            .hasMessageStartingWith("sandbox member \"" + victim + "\" is not online");
        assertThatThrownBy(
                () ->
                    new ClusterPlacement(new ClusterMembers(client)).target(ovnSandbox(""), victim))
            .hasMessageStartingWith("host \"" + victim + "\" is not online");
        // Elsewhere everything keeps working.
        assertThat(onSurvivor.compute().instances().get(kept, "s1").status()).isEqualTo("Running");
        // sandbox.list answers; the unreachable instance is listed with Incus's status Error.
        assertThat(onSurvivor.compute().sandboxes().list())
            .extracting(l -> l.sandbox().name())
            .contains(lost, kept);
        assertThat(onVictim.compute().instances().list(lost))
            .singleElement()
            .satisfies(
                i -> {
                  assertThat(i.name()).isEqualTo("v1");
                  assertThat(i.location()).isEqualTo(victim);
                  assertThat(i.status()).isEqualTo("Error");
                });

        // The reaper leaves both sandboxes whole: one has an instance on the stopped member, and
        // both have a bridge, which Incus deletes on every member. It retries on its next scans.
        Reaper.Scan scan = reaper.scan();
        assertThat(scan.deleted()).doesNotContain(lost, kept);
        assertThat(scan.failed()).contains(lost, kept);
        assertThat(onSurvivor.compute().instances().get(kept, "s1").status()).isEqualTo("Running");
      } finally {
        host.instances().start(victim);
        awaitAllOnline("after " + victim + " started again");
      }
    }
    // Back: the next scans reap both (the member may need a few more seconds to take requests).
    long deadline = System.nanoTime() + SETTLE.toNanos();
    List<String> deleted = new ArrayList<>();
    while (System.nanoTime() < deadline && !deleted.containsAll(List.of(lost, kept))) {
      deleted.addAll(reaper.scan().deleted());
      if (!deleted.containsAll(List.of(lost, kept))) {
        Thread.sleep(2000);
      }
    }
    assertThat(deleted).as("the reaper's scans after %s returned", victim).contains(lost, kept);
    assertThat(onVictim.compute().sandboxes().list())
        .extracting(SandboxService.Listed::sandbox)
        .extracting(Sandbox::name)
        .doesNotContain(lost, kept);
    assertThat(client.projects().list())
        .extracting(dev.agentcompute.incus.Project::name)
        .doesNotContain(Meta.project(lost), Meta.project(kept));
    assertThat(client.networks().list())
        .noneMatch(n -> lost.equals(n.config().get(Meta.SANDBOX)))
        .noneMatch(n -> kept.equals(n.config().get(Meta.SANDBOX)));
  }
}
