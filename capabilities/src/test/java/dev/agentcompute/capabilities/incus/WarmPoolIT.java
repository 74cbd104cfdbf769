package dev.agentcompute.capabilities.incus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.adapter.Views.NetworkView;
import dev.agentcompute.capabilities.adapter.instance.InstanceCapabilities;
import dev.agentcompute.capabilities.adapter.sandbox.SandboxCapabilities;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.config.Quotas;
import dev.agentcompute.capabilities.model.AgentFacingException;
import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SubnetPool;
import dev.agentcompute.capabilities.platform.ReaperLease;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.Network;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The warm pool on the real incusd (docs/reference/sandbox-pool.md): a claimed sandbox is what a
 * fresh one is to an agent (name, TTL, networks, sandbox.get, a working instance) and to Incus (the
 * same project config and bridge config, so the same limits and containment), a claim that stops
 * before its rename leaves nothing an agent sees and nothing the sweep does not delete, and two
 * servers reserving one member never both get it. Subnets come from 10.211.192.0/19, which the
 * other ITs do not reach.
 */
class WarmPoolIT {
  private static final String AGENT = "agent";
  private static final SubnetPool POOL = SubnetPool.parse("10.211.192.0/19", 24);

  private static IncusClient client;
  private static final List<String> sandboxes = new ArrayList<>();
  private final List<WarmPool> pools = new ArrayList<>();

  @BeforeAll
  static void connect() {
    client = LocalIncus.client();
  }

  /** The pool's baseline ACL goes with the last bridge that used it. */
  @AfterAll
  static void disconnect() {
    String baseline =
        new BridgeBaseline(client.networks(), client.networkAcls(), POOL, List.of()).name();
    IncusFailures.ignoreNotFound(() -> client.networkAcls().delete(baseline));
    client.close();
  }

  /** Deletes what a test left: its sandboxes, and every member its pools prepared. */
  @AfterEach
  void cleanUp() {
    try (ComputeRuntime runtime = runtime(0)) {
      for (String name : sandboxes) {
        try {
          runtime.compute().sandboxes().delete(name);
        } catch (RuntimeException e) {
          // already gone
        }
      }
    }
    sandboxes.clear();
    for (WarmPool pool : pools) {
      members.addAll(pool.unclaimed());
    }
    for (String member : members) {
      pools.getFirst().discard(member); // a member renamed into a sandbox is gone already
    }
    members.clear();
  }

  /** Every member a test prepared or filled, reserved or not. */
  private final List<String> members = new ArrayList<>();

  private String prepare(WarmPool pool) {
    String member = pool.prepare();
    members.add(member);
    return member;
  }

  private static ComputeConfig config(int size) {
    return ComputeConfig.defaults()
        .withCatalogFile(LocalIncus.root().resolve("images/catalog.yaml"))
        .withBridgeSubnets(POOL)
        .withReaperInterval(Duration.ofHours(1))
        .withWarmPoolSize(size);
  }

  private static ComputeRuntime runtime(int size) {
    IncusPlatform incus = IncusPlatform.overUnixSocket(LocalIncus.socket(), config(size));
    return ComputeRuntime.prepare(
        config(size), List.of(incus.platform()), ReaperLease.ALWAYS, Clock.systemUTC(), incus);
  }

  /** A pool of {@code size} over the shared incusd, its clock {@code ahead} of the real one. */
  private WarmPool pool(int size, Duration ahead) {
    ComputeConfig config = config(size);
    BridgeNetworks bridges =
        new BridgeNetworks(
            client,
            new ClusterMembers(client),
            new SubnetClaims(client.networks(), config.bridgeSubnets(), config.ovnUplink()),
            new BridgeBaseline(
                client.networks(),
                client.networkAcls(),
                config.bridgeSubnets(),
                config.protectedRanges()),
            new BridgeFence(client.networkAcls(), config.bridgeSubnets()),
            new NetworkCreations(
                new ClusterMembers(client), new ProjectMutex(client, Clock.systemUTC())));
    WarmPool pool =
        new WarmPool(client, config, bridges, Clock.offset(Clock.systemUTC(), ahead), size);
    pools.add(pool);
    return pool;
  }

  private static String name(String prefix) {
    String name =
        prefix + "-" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x10000, 0xfffff));
    sandboxes.add(name);
    return name;
  }

  @SuppressWarnings("unchecked")
  private static <O> O call(ComputeRuntime runtime, String capability, Record input) {
    for (CapabilityDefinition<?, ?> c : runtime.capabilities()) {
      if (c.name().equals(capability)) {
        return (O) c.invoke(AGENT, input);
      }
    }
    throw new IllegalArgumentException("no capability " + capability);
  }

  private static SandboxCapabilities.CreateOutput create(ComputeRuntime runtime, String name) {
    return call(
        runtime,
        "sandbox.create",
        new SandboxCapabilities.CreateInput(
            Optional.of(name), Optional.empty(), OptionalLong.of(30), Optional.empty()));
  }

  private static String echo(ComputeRuntime runtime, String sandbox) {
    call(runtime, "instance.create", InstanceCapabilities.CreateInput.of(sandbox, "c", "busybox"));
    dev.agentcompute.capabilities.model.ExecResult out =
        call(
            runtime,
            "instance.exec",
            new InstanceCapabilities.ExecInput(
                sandbox,
                "c",
                "echo hi",
                OptionalLong.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty()));
    return out.stdout();
  }

  /** The config keys of a sandbox's project and of its default bridge, values that vary masked. */
  private static Map<String, Set<String>> shape(String sandbox) {
    Map<String, String> project = client.projects().get(Meta.project(sandbox)).config();
    Network bridge = client.networks().get(project.get(Meta.NETWORK_PREFIX + "default"));
    Set<String> projectShape = new TreeSet<>();
    project.forEach(
        (key, value) -> {
          if (key.equals(Meta.POOL_CLAIMED_AT)) {
            return; // the claim's own record: where the sandbox came from
          }
          boolean varies =
              key.equals(Meta.CREATED_AT)
                  || key.equals(Meta.EXPIRES_AT)
                  || key.startsWith(Meta.NETWORK_PREFIX)
                  || key.equals("restricted.networks.access");
          projectShape.add(key + "=" + (varies ? "*" : value));
        });
    Set<String> bridgeShape = new TreeSet<>();
    bridge
        .config()
        .forEach(
            (key, value) -> {
              boolean varies =
                  key.equals("ipv4.address")
                      || key.equals("security.acls")
                      || key.startsWith("volatile.")
                      || key.equals(Meta.SANDBOX);
              bridgeShape.add(key + "=" + (varies ? "*" : value));
            });
    return Map.of("project", projectShape, "bridge", bridgeShape);
  }

  @Test
  void aClaimedSandboxIsIndistinguishableFromAFreshOne() {
    try (ComputeRuntime pooled = runtime(1);
        ComputeRuntime fresh = runtime(0)) {
      WarmPool pool = pool(1, Duration.ZERO);
      pool.fill();
      List<String> members = pool.unclaimed();
      assertThat(members).hasSize(1);

      String claimedName = name("pooled");
      String freshName = name("fresh");
      SandboxCapabilities.CreateOutput claimed = create(pooled, claimedName);
      SandboxCapabilities.CreateOutput made = create(fresh, freshName);

      // The member became the sandbox: its project is gone under the member's name.
      assertThat(client.projects().list())
          .noneMatch(p -> p.name().equals(members.getFirst()))
          .anyMatch(p -> p.name().equals(Meta.project(claimedName)));
      assertThat(claimed.name()).isEqualTo(claimedName);
      assertThat(claimed.pinned()).isEqualTo(made.pinned());
      assertThat(claimed.platform()).isEqualTo(made.platform());
      assertThat(Duration.between(Instant.now(), Instant.parse(claimed.expires_at())))
          .isBetween(Duration.ofMinutes(29), Duration.ofMinutes(30));
      assertThat(shapeOf(claimed.network())).isEqualTo(shapeOf(made.network()));

      SandboxCapabilities.GetOutput claimedGet =
          call(pooled, "sandbox.get", new SandboxCapabilities.NameInput(claimedName));
      SandboxCapabilities.GetOutput freshGet =
          call(fresh, "sandbox.get", new SandboxCapabilities.NameInput(freshName));
      assertThat(claimedGet.name()).isEqualTo(claimedName);
      assertThat(claimedGet.expires_at()).isEqualTo(claimed.expires_at());
      assertThat(claimedGet.instances()).isEqualTo(freshGet.instances());
      assertThat(claimedGet.networks().stream().map(WarmPoolIT::shapeOf).toList())
          .isEqualTo(freshGet.networks().stream().map(WarmPoolIT::shapeOf).toList());
      // Either runtime sees the claimed sandbox: its state lives in Incus, as a fresh one's.
      SandboxCapabilities.GetOutput seenByOther =
          call(fresh, "sandbox.get", new SandboxCapabilities.NameInput(claimedName));
      assertThat(seenByOther).isEqualTo(claimedGet);

      assertThat(shape(claimedName)).isEqualTo(shape(freshName));
      assertThat(echo(pooled, claimedName)).isEqualTo("hi\n");
      assertThat(echo(fresh, freshName)).isEqualTo("hi\n");
    }
  }

  /**
   * A member is listed from its project's creation on, a second or more before its bridge exists.
   * Before the ready mark, a claim that took such a member retagged a bridge not yet there: it
   * discarded the member (and its fence ACL) under the filler's bridge creation ("Failed loading
   * ACL ... Network ACL not found"), or handed the agent a sandbox without its bridge.
   */
  @Test
  void aMemberStillBeingPreparedIsNotClaimedAndIsSweptIfItsPreparationStopped() {
    WarmPool pool = pool(1, Duration.ZERO);
    String member = prepare(pool);
    // The member as it is while Incus still makes its bridge: no ready mark yet.
    client
        .projects()
        .update(
            member,
            current -> {
              Map<String, String> cfg = new java.util.LinkedHashMap<>(current.config());
              cfg.remove(Meta.POOL_READY_AT);
              return current.withConfig(cfg);
            });
    assertThat(pool.unclaimed()).doesNotContain(member);

    try (ComputeRuntime runtime = runtime(1)) {
      create(runtime, name("early"));
    }
    assertThat(client.projects().list())
        .as("the member was left to its preparation")
        .anyMatch(p -> p.name().equals(member));

    assertThat(pool(1, Duration.ofMinutes(9)).sweep()).doesNotContain(member);
    assertThat(pool(1, Duration.ofMinutes(11)).sweep()).contains(member);
  }

  /** What {@code read} returns once {@code done} holds, or when {@code limit} has passed. */
  private static <T> T until(Callable<T> read, java.util.function.Predicate<T> done, Duration limit)
      throws Exception {
    long deadline = System.nanoTime() + limit.toNanos();
    T value = read.call();
    while (!done.test(value) && System.nanoTime() < deadline) {
      Thread.sleep(100);
      value = read.call();
    }
    return value;
  }

  /**
   * The filler prepares a claim's replacement {@link WarmPoolFiller#AFTER_CLAIM} later, not beside
   * the agent's next calls: with it at once, instance.create in the claimed sandbox took 1347
   * against 910 ms p50 (bench/lifecycle, docs/reference/sandbox-pool.md#filler).
   */
  @Test
  void aClaimsReplacementIsPreparedOnceTheAgentsFirstStepsAreDone() throws Exception {
    pool(1, Duration.ZERO); // the clean-up discards what the filler prepared through it
    IncusPlatform incus = IncusPlatform.overUnixSocket(LocalIncus.socket(), config(1));
    try (ComputeRuntime runtime =
        ComputeRuntime.prepare(
            config(1), List.of(incus.platform()), ReaperLease.ALWAYS, Clock.systemUTC(), incus)) {
      WarmPoolFiller filler = incus.warmPool();
      filler.start(); // its first fill prepares the one member
      try {
        List<String> ready = until(filler::members, m -> m.size() == 1, Duration.ofSeconds(60));
        assertThat(ready).hasSize(1);

        create(runtime, name("claim"));
        long claimed = System.nanoTime();

        Duration quiet = WarmPoolFiller.AFTER_CLAIM.minusSeconds(1);
        assertThat(until(filler::members, m -> !m.isEmpty(), quiet))
            .as("a replacement prepared within %s of the claim", quiet)
            .isEmpty();
        List<String> replaced = until(filler::members, m -> m.size() == 1, Duration.ofSeconds(60));
        assertThat(replaced).hasSize(1).doesNotContainAnyElementsOf(ready);
        assertThat(Duration.ofNanos(System.nanoTime() - claimed)).isGreaterThan(quiet);
      } finally {
        filler.close();
      }
    }
  }

  @Test
  void anIdentityAtItsSandboxCapIsRefusedWhileAMemberIsReady() {
    ComputeConfig capped = config(1).withQuotas(Quotas.defaults().withSandboxesPerIdentity(1));
    IncusPlatform incus = IncusPlatform.overUnixSocket(LocalIncus.socket(), capped);
    try (ComputeRuntime runtime =
        ComputeRuntime.prepare(
            capped, List.of(incus.platform()), ReaperLease.ALWAYS, Clock.systemUTC(), incus)) {
      WarmPool pool = pool(1, Duration.ZERO);
      pool.fill();
      create(runtime, name("capped")); // claims the member
      pool.fill();
      List<String> ready = pool.unclaimed();
      assertThat(ready).hasSize(1);

      assertThatThrownBy(() -> create(runtime, name("over")))
          .isInstanceOf(AgentFacingException.class)
          .hasMessage(
              "identity \"" + AGENT + "\" already has 1 live sandboxes (sandbox.max_per_identity)");
      assertThat(pool.unclaimed()).isEqualTo(ready);
    }
  }

  private static String shapeOf(NetworkView network) {
    return network.name()
        + " "
        + network.kind()
        + " "
        + network.cidr().replaceAll("^10\\.211\\.\\d+\\.", "10.211.N.")
        + " "
        + network.gateway().replaceAll("^10\\.211\\.\\d+\\.", "10.211.N.");
  }

  @Test
  void aClaimStoppedBeforeItsRenameLeavesNothingAnAgentSeesAndTheSweepDeletesIt() {
    WarmPool pool = pool(1, Duration.ZERO);
    String member = prepare(pool);
    String physical = client.projects().get(member).config().get(Meta.NETWORK_PREFIX + "default");
    String name = name("crashed");
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    Sandbox sandbox =
        new Sandbox(
            name,
            IncusPlatform.NAME,
            now,
            now.plusSeconds(1800),
            AGENT,
            false,
            "",
            null,
            NetworkKind.BRIDGE,
            "none");

    assertThat(pool.reserve(member, sandbox)).isTrue(); // ... and the server dies here

    try (ComputeRuntime runtime = runtime(1)) {
      assertThatThrownBy(
              () -> call(runtime, "sandbox.get", new SandboxCapabilities.NameInput(name)))
          .isInstanceOf(AgentFacingException.class)
          .hasMessageContaining("not found");
      SandboxCapabilities.ListOutput list =
          call(runtime, "sandbox.list", new SandboxCapabilities.ListInput());
      assertThat(list.items()).noneMatch(item -> item.name().equals(name));
      // The reserved member is nobody's to claim again.
      assertThat(pool.unclaimed()).doesNotContain(member);
    }
    assertThat(pool.sweep()).doesNotContain(member); // a claim may still be under way
    assertThat(pool(1, WarmPool.CLAIM_ABANDONED.plusMinutes(1)).sweep()).contains(member);
    assertThat(client.projects().list()).noneMatch(p -> p.name().equals(member));
    assertThat(client.networks().names()).doesNotContain(physical);
    assertThat(client.networkAcls().list())
        .noneMatch(a -> a.name().equals(BridgeFence.name(physical)));
  }

  /**
   * A member's bridge whose project is gone, as a preparation cancelled while Incus was still
   * creating the bridge leaves it (its cleanup found no bridge yet and deleted the project), or a
   * member deleted by hand project first: the project listing never shows it again, so only the
   * bridge sweep can delete it.
   */
  private String orphanedBridge(WarmPool pool) {
    String member = prepare(pool);
    String physical = client.projects().get(member).config().get(Meta.NETWORK_PREFIX + "default");
    assertThat(physical).isNotEmpty();
    client.projects().delete(member);
    orphans.add(physical);
    return physical;
  }

  /** Bridges a test left without their project: deleted with their fences whatever happened. */
  private final List<String> orphans = new ArrayList<>();

  @AfterEach
  void deleteOrphans() {
    for (String physical : orphans) {
      IncusFailures.ignoreNotFound(() -> client.networks().delete(physical));
      IncusFailures.ignoreNotFound(() -> client.networkAcls().delete(BridgeFence.name(physical)));
    }
    orphans.clear();
  }

  @Test
  void aPoolBridgeWhoseMemberProjectIsGoneIsSweptOnceOld() {
    WarmPool pool = pool(1, Duration.ZERO);
    String physical = orphanedBridge(pool);
    String member = client.networks().get(physical).config().get(Meta.SANDBOX);

    assertThat(pool(1, WarmPool.BRIDGE_ORPHANED.plusMinutes(1)).sweep()).contains(member);
    assertThat(client.networks().names()).doesNotContain(physical);
    assertThat(client.networkAcls().list())
        .noneMatch(a -> a.name().equals(BridgeFence.name(physical)));
  }

  @Test
  void aFreshPoolBridgeWhoseMemberProjectIsMissingIsKept() {
    // Younger than BRIDGE_ORPHANED: it may be the bridge of a member another server is preparing
    // or whose claim is being renamed, read between the listings.
    WarmPool pool = pool(1, Duration.ZERO);
    String physical = orphanedBridge(pool);
    String member = client.networks().get(physical).config().get(Meta.SANDBOX);

    assertThat(pool.sweep()).doesNotContain(member);
    assertThat(pool(1, WarmPool.BRIDGE_ORPHANED.minusMinutes(1)).sweep()).doesNotContain(member);
    assertThat(client.networks().names()).contains(physical);
  }

  private static Sandbox sandbox(String name) {
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    return new Sandbox(
        name,
        IncusPlatform.NAME,
        now,
        now.plusSeconds(1800),
        AGENT,
        false,
        "",
        null,
        NetworkKind.BRIDGE,
        "none");
  }

  @Test
  @SuppressWarnings("unchecked")
  void aSecondServerReservingWhileTheFirstHoldsTheClaimLockWaitsAndThenLoses() throws Exception {
    WarmPool one = pool(1, Duration.ZERO);
    WarmPool two = pool(1, Duration.ZERO);
    String member = prepare(one);
    Sandbox first = sandbox(name("first"));
    Sandbox second = sandbox(name("second"));
    ExecutorService other = Executors.newSingleThreadExecutor();
    try {
      Future<Boolean>[] twoReserved = new Future[1];
      boolean[] twoDoneMeanwhile = {true};
      // Server one has read the member; server two tries to reserve it before one writes. With
      // If-Match alone both writes could succeed (Incus checks the ETag and writes in two
      // transactions); under the claim lock two waits until one is done, then finds it claimed.
      boolean oneWon =
          one.reserve(
              member,
              first,
              () -> {
                twoReserved[0] = other.submit(() -> two.reserve(member, second));
                try {
                  Thread.sleep(1000);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                twoDoneMeanwhile[0] = twoReserved[0].isDone();
              });

      assertThat(twoDoneMeanwhile[0]).as("server two reserved while one held the lock").isFalse();
      assertThat(oneWon).isTrue();
      assertThat(twoReserved[0].get(30, TimeUnit.SECONDS)).isFalse();
      one.commit(member, first);
      assertThat(client.projects().list())
          .anyMatch(p -> p.name().equals(Meta.project(first.name())))
          .noneMatch(p -> p.name().equals(Meta.project(second.name())));
    } finally {
      other.shutdownNow();
    }
  }

  @Test
  void ofTwoServersReservingOneMemberOnlyOneGetsIt() throws Exception {
    WarmPool one = pool(1, Duration.ZERO);
    WarmPool two = pool(1, Duration.ZERO);
    String member = prepare(one);
    List<Sandbox> wanted = List.of(sandbox(name("first")), sandbox(name("second")));
    CyclicBarrier start = new CyclicBarrier(2);
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      List<Callable<Boolean>> reservations =
          List.of(
              () -> {
                start.await();
                return one.reserve(member, wanted.get(0));
              },
              () -> {
                start.await();
                return two.reserve(member, wanted.get(1));
              });
      List<Boolean> won = new ArrayList<>();
      for (Future<Boolean> f : threads.invokeAll(reservations)) {
        won.add(f.get());
      }
      assertThat(won).containsExactlyInAnyOrder(true, false);
      Sandbox winner = wanted.get(won.indexOf(true));
      (won.get(0) ? one : two).commit(member, winner);
      assertThat(client.projects().get(Meta.project(winner.name())).config())
          .containsEntry(Meta.SUBJECT, AGENT)
          .containsEntry(Meta.EXPIRES_AT, winner.expiresAt().toString());
      assertThat(client.projects().list())
          .noneMatch(p -> p.name().equals(Meta.project(wanted.get(won.indexOf(false)).name())));
    } finally {
      threads.shutdownNow();
    }
  }
}
