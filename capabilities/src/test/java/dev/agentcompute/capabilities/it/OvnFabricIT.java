package dev.agentcompute.capabilities.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.adapter.instance.InstanceCapabilities;
import dev.agentcompute.capabilities.adapter.net.OvnNetCapabilities;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.incus.IncusPlatform;
import dev.agentcompute.capabilities.model.AgentFacingException;
import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.ExecRequest;
import dev.agentcompute.capabilities.model.ExecResult;
import dev.agentcompute.capabilities.model.Ipv4Cidr;
import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.NetworkPlan;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.model.SandboxNetwork;
import dev.agentcompute.capabilities.model.SubnetPool;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.ovn.Condition;
import dev.agentcompute.ovn.Operation;
import dev.agentcompute.ovn.OvnNorthbound;
import dev.agentcompute.ovn.OvsdbEndpoint;
import dev.agentcompute.ovn.OvsdbOptions;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The OVN fabric on the real stack ({@code dev/ovn-stack up}): two OVN sandboxes with busybox
 * containers, isolation, peering, agent ACLs over the immutable baseline, a forward reached from
 * the host, nat=false isolation and net.inspect against the northbound database. Skips when the
 * stack (the Incus network {@code ovn-uplink}) is not up. Traffic goes only between these
 * containers and the host's uplink bridge.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OvnFabricIT {
  private static final String UPLINK = OvnTestStack.UPLINK;
  private static final String OPERATOR = "operator";

  /** This test's site: a management and an out-of-band range (the original's, as test data). */
  private static final List<Ipv4Cidr> SITE_PROTECTED =
      List.of(
          Ipv4Cidr.parse("10.10.10.0/24").orElseThrow(),
          Ipv4Cidr.parse("10.10.70.0/24").orElseThrow());

  private static IncusClient incus;
  private static OvnNorthbound northbound;
  private static ComputeRuntime runtime;
  private static ComputeCalls service;
  private static List<CapabilityDefinition<?, ?>> caps;
  private static final List<String> sandboxes = new ArrayList<>();
  private static final List<String> routes = new ArrayList<>();
  private static String a;
  private static String b;
  private static String sideCidr;
  private static String isoCidr;

  /** A protected range of the test: the subnet of a network of sandbox A ("vault"). */
  private static String vaultCidr;

  /** This run's forward range is 10.90.1.{rangeStart}-10.90.1.{rangeStart + 56}. */
  private static int rangeStart;

  private static final String NB_ROWS = IncusHarness.uniqueName("it-acfwd");

  @BeforeAll
  static void start() {
    incus = OvnTestStack.incusOrAbort();
    northbound = OvnNorthbound.connect(OvsdbEndpoint.parse(OvnTestStack.nbEndpoint()));
    int x =
        ThreadLocalRandom.current()
            .nextInt(32, 200); // also picks this run's part of the forward range
    rangeStart = x - 16;
    sideCidr = "10.212." + x + ".0/24";
    isoCidr = "10.212." + (x + 1) + ".0/24";
    vaultCidr = "10.212." + (x + 2) + ".0/24";
    List<Ipv4Cidr> protectedRanges = new ArrayList<>(SITE_PROTECTED);
    protectedRanges.add(Ipv4Cidr.parse(vaultCidr).orElseThrow());
    ComputeConfig config =
        IncusHarness.config()
            .withDefaultNetworkKind(NetworkKind.OVN)
            .withOvnUplink(UPLINK)
            .withOvnRanges("10.90.1." + (x - 16) + "-10.90.1." + (x + 40))
            .withProtectedRanges(protectedRanges)
            .withBridgeSubnets(SubnetPool.parse("10.212.0.0/16", 24));
    runtime = ComputeRuntime.startIncus(config, incus, northbound);
    service = new ComputeCalls(runtime);
    caps = runtime.capabilities();
    a = newSandbox();
    b = newSandbox();
  }

  private static String newSandbox() {
    String name = IncusHarness.uniqueName("itovn");
    sandboxes.add(name);
    service.createSandbox(OPERATOR, name, "", 60, false);
    return name;
  }

  @AfterAll
  static void stop() throws Exception {
    if (runtime == null) {
      return;
    }
    try {
      northbound.transact(
          Operation.delete("Load_Balancer").where(Condition.eq("name", NB_ROWS)),
          Operation.delete("Logical_Router").where(Condition.eq("name", NB_ROWS)));
      for (String route : routes) {
        run("ip", "route", "del", route);
      }
      for (String sandbox : sandboxes) {
        try {
          service.deleteSandbox(sandbox);
        } catch (RuntimeException e) {
          System.err.println("cleanup of " + sandbox + " failed: " + e);
        }
      }
      for (String sandbox : sandboxes) {
        assertThat(service.findSandbox(sandbox)).as("sandbox %s is gone", sandbox).isEmpty();
      }
    } finally {
      runtime.close();
      northbound.close();
      incus.close();
    }
  }

  // ---- helpers ---------------------------------------------------------------------------------

  private static <O> O call(String name, Record input) {
    return IncusHarness.call(caps, OPERATOR, name, input);
  }

  private static void container(String sandbox, String name, String network) {
    call(
        "instance.create",
        new InstanceCapabilities.CreateInput(
            sandbox,
            name,
            "busybox",
            Optional.empty(),
            OptionalLong.empty(),
            OptionalLong.empty(),
            OptionalLong.empty(),
            Optional.of(network),
            Optional.empty(),
            Optional.empty()));
  }

  /** The container's IPv4 on the NIC of {@code network}, waiting for DHCP. */
  private static String address(String sandbox, String instance, String network)
      throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (System.nanoTime() < end) {
      Optional<SandboxInstance> found = service.findInstance(sandbox, instance);
      Optional<String> ip =
          found.flatMap(
              i ->
                  i.nics().stream()
                      .filter(n -> n.network().equals(network))
                      .flatMap(n -> n.addresses().stream())
                      .filter(s -> Ipv4Cidr.parseAddress(s).isPresent())
                      .findFirst());
      if (ip.isPresent()) {
        return ip.get();
      }
      Thread.sleep(500);
    }
    throw new AssertionError("no IPv4 on " + instance + "/" + network + " after 90 s");
  }

  private static ExecResult exec(String sandbox, String instance, String script) {
    return service.exec(
        sandbox,
        instance,
        ExecRequest.shell(script).withTimeout(Optional.of(Duration.ofSeconds(30))));
  }

  /** One ping of 1 s: true when answered. */
  private static boolean ping(String sandbox, String instance, String target) {
    return exec(sandbox, instance, "ping -c 1 -W 1 " + target).exit_code() == 0;
  }

  /** Waits up to {@code seconds} for ping to give {@code expected}; returns the last result. */
  private static boolean pingBecomes(
      String sandbox, String instance, String target, boolean expected, int seconds) {
    boolean last = !expected;
    for (int i = 0; i < seconds; i++) {
      last = ping(sandbox, instance, target);
      if (last == expected) {
        return last;
      }
    }
    return last;
  }

  private static String run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
    }
    return out;
  }

  private static void fails(Runnable call, String message) {
    assertThatThrownBy(call::run).isInstanceOf(AgentFacingException.class).hasMessage(message);
  }

  // ---- tests -----------------------------------------------------------------------------------

  @Test
  @Order(1)
  void sandboxesGetOvnDefaultNetworksFromThePool() {
    Sandbox sandbox = service.requireSandbox(a);
    assertThat(sandbox.networkKind()).isEqualTo(NetworkKind.OVN);
    SandboxNetwork network = service.getNetwork(a, "default");
    assertThat(network.kind()).isEqualTo("ovn");
    assertThat(network.cidr()).startsWith("10.212.").endsWith(".1/24");
    var incusNet = incus.inProject("ac-" + a).networks().get("default");
    assertThat(incusNet.config())
        .containsEntry("network", UPLINK)
        .containsEntry("ipv4.nat", "true")
        .containsEntry("security.acls.default.egress.action", "allow");
    assertThat(incusNet.config().get("security.acls")).startsWith("baseline,agent-");
    assertThat(service.getNetwork(b, "default").cidr()).isNotEqualTo(network.cidr());
    SandboxNetwork side =
        service.createNetwork(
            a, new NetworkPlan("side", NetworkKind.OVN, sideCidr, true, true, true));
    assertThat(side.cidr()).isEqualTo(sideCidr.replace(".0/24", ".1/24"));
    // An identical re-create returns the network; a different setting is refused.
    assertThat(
            service.createNetwork(
                a, new NetworkPlan("side", NetworkKind.OVN, sideCidr, true, true, true)))
        .isEqualTo(side);
    fails(
        () ->
            service.createNetwork(
                a, new NetworkPlan("side", NetworkKind.OVN, sideCidr, true, false, true)),
        "network \"side\" already exists with a different network setting; delete it before"
            + " recreating it");
    assertThat(service.listNetworks(a))
        .extracting(SandboxNetwork::name)
        .containsExactlyInAnyOrder("default", "side");
  }

  @Test
  @Order(2)
  void isolationPeeringAndAcls() throws Exception {
    container(a, "a1", "default");
    container(a, "a2", "side");
    container(b, "b1", "default");
    String a1 = address(a, "a1", "default");
    String a2 = address(a, "a2", "side");
    String b1 = address(b, "b1", "default");
    String gateway = service.getNetwork(a, "default").gateway();
    assertThat(pingBecomes(a, "a1", gateway, true, 20)).as("a1 reaches its router").isTrue();

    assertThat(ping(a, "a1", b1)).as("sandbox A cannot reach sandbox B").isFalse();
    assertThat(ping(b, "b1", a1)).as("sandbox B cannot reach sandbox A").isFalse();
    assertThat(ping(a, "a1", a2)).as("two networks of one sandbox, not peered").isFalse();

    service.peer(a, "default", "side");
    service.peer(a, "side", "default"); // idempotent, either order
    assertThat(incus.inProject("ac-" + a).networks().peers("default"))
        .extracting(p -> p.name())
        .containsExactly("side");
    assertThat(incus.inProject("ac-" + a).networks().peers("side"))
        .extracting(p -> p.name())
        .containsExactly("default");
    assertThat(pingBecomes(a, "a1", a2, true, 20)).as("peered networks reach each other").isTrue();
    assertThat(ping(a, "a2", a1)).isTrue();
    assertThat(ping(a, "a1", b1)).as("peering does not open other sandboxes").isFalse();

    String rule = service.addAclRule(a, "default", "egress", "drop", "icmp", "", a2 + "/32", "");
    assertThat(rule).matches("r-[0-9a-f]{16}");
    assertThat(pingBecomes(a, "a1", a2, false, 10))
        .as("the drop blocks what flowed before")
        .isFalse();
    assertThat(inspect(a, "default").rules())
        .anySatisfy(
            r -> {
              assertThat(r.acl()).isEqualTo("agent");
              assertThat(r.id()).isEqualTo(rule);
              assertThat(r.action()).isEqualTo("drop");
              assertThat(r.match()).contains(a2);
            });
    service.removeAclRule(a, "default", rule);
    assertThat(pingBecomes(a, "a1", a2, true, 20))
        .as("removing the drop restores traffic")
        .isTrue();
    assertThat(inspect(a, "default").rules()).noneMatch(r -> r.id().equals(rule));
    fails(
        () -> service.removeAclRule(a, "default", rule),
        "rule \"" + rule + "\" not found on network \"default\" in sandbox \"" + a + "\"");
  }

  @Test
  @Order(3)
  void baselineCannotBeRemovedNorOverridden() throws Exception {
    // The vault network's subnet is a protected range of this runtime: the baseline drops egress to
    // it. Agents may not create a network there, so an operator's runtime without that range
    // creates it (the sandbox's baseline, made by this runtime, still drops it).
    fails(
        () ->
            service.createNetwork(
                a, new NetworkPlan("vault", NetworkKind.OVN, vaultCidr, true, true, true)),
        "cidr \"" + vaultCidr + "\" overlaps the protected range " + vaultCidr);
    try (ComputeRuntime operator =
        ComputeRuntime.prepare(
            runtime.compute().config().withProtectedRanges(SITE_PROTECTED),
            List.of(IncusPlatform.over(incus, runtime.compute().config(), northbound).platform()),
            java.time.Clock.systemUTC())) {
      new ComputeCalls(operator)
          .createNetwork(a, new NetworkPlan("vault", NetworkKind.OVN, vaultCidr, true, true, true));
    }
    container(a, "v1", "vault");
    String v1 = address(a, "v1", "vault");
    service.peer(a, "default", "vault");
    assertThat(pingBecomes(a, "a1", v1, true, 8))
        .as("the baseline drops egress into a protected range")
        .isFalse();
    fails(
        () -> service.removeAclRule(a, "default", "baseline-egress-mgmt"),
        "rule \"baseline-egress-mgmt\" is a baseline ACL and cannot be removed");
    fails(
        () -> service.removeAclRule(a, "default", "baseline-egress-oob"),
        "rule \"baseline-egress-oob\" is a baseline ACL and cannot be removed");
    for (String dst : List.of(v1, vaultCidr, "10.212.0.0/16", "10.10.10.0/24", "10.10.70.20")) {
      fails(
          () -> service.addAclRule(a, "default", "egress", "allow", "", "", dst, ""),
          "allow requires an explicit destination outside management and OOB ranges");
    }
    // A drop can still be added; the baseline's rows stay above the agent's allows in OVN.
    var inspection = inspect(a, "default");
    assertThat(inspection.rules())
        .extracting(OvnNetCapabilities.RuleView::id)
        .contains("baseline-egress-mgmt", "baseline-egress-oob");
    assertThat(inspection.rules())
        .anySatisfy(
            r -> {
              assertThat(r.acl()).isEqualTo("baseline");
              assertThat(r.action()).isEqualTo("drop");
              assertThat(r.match()).contains(vaultCidr);
            });
    assertThat(ping(a, "a1", v1)).isFalse();
  }

  @Test
  @Order(4)
  void inspectReportsExactlyTheRulesInEffect() throws Exception {
    String added =
        service.addAclRule(a, "default", "egress", "allow", "tcp", "", "10.90.1.0/24", "8080");
    String ingress =
        service.addAclRule(a, "default", "ingress", "drop", "tcp", "", "10.90.1.0/24", "8080");
    OvnNetCapabilities.InspectOutput inspection = inspect(a, "default");
    List<Long> priorities =
        inspection.rules().stream().map(OvnNetCapabilities.RuleView::priority).toList();
    assertThat(priorities).isSortedAccordingTo((x, y) -> Long.compare(y, x));
    assertThat(inspection.rules())
        .filteredOn(r -> !r.id().isEmpty())
        .extracting(OvnNetCapabilities.RuleView::id)
        .containsExactlyInAnyOrder(
            "baseline-egress-mgmt", "baseline-egress-oob", "baseline-egress-2", added, ingress);
    assertThat(inspection.rules())
        .filteredOn(r -> r.id().equals(ingress))
        .singleElement()
        .satisfies(r -> assertThat(r.match()).contains("outport == @").contains("10.90.1.0/24"));
    OvnNetCapabilities.RuleView allow =
        inspection.rules().stream().filter(r -> r.id().equals(added)).findFirst().orElseThrow();
    assertThat(allow.match()).contains("10.90.1.0/24").contains("8080");
    long maxBaselineDrop =
        inspection.rules().stream()
            .filter(r -> r.acl().equals("baseline") && !r.id().isEmpty())
            .mapToLong(OvnNetCapabilities.RuleView::priority)
            .min()
            .orElseThrow();
    assertThat(maxBaselineDrop)
        .as("baseline drops outrank agent allows")
        .isGreaterThan(allow.priority());
    // Exactly the rows of the two ACLs' port groups, as the database holds them.
    assertThat(inspection.logical_switch()).startsWith("incus-net").endsWith("-ls-int");
    String a1 = address(a, "a1", "default");
    assertThat(inspection.ports())
        .anySatisfy(
            p -> {
              assertThat(p.type()).isEmpty();
              assertThat(String.join(" ", p.addresses())).contains(a1);
            });
    assertThat(inspection.ports()).anySatisfy(p -> assertThat(p.type()).isEqualTo("router"));
    service.removeAclRule(a, "default", added);
    service.removeAclRule(a, "default", ingress);
    assertThat(inspect(a, "default").rules()).hasSize(inspection.rules().size() - 2);
  }

  @Test
  @Order(5)
  void inspectMapsPortGroupsToAclsByTheirRulesNotByAge() {
    // Sandbox B's baseline is re-made after its agent ACL, so Incus numbers it higher
    // (incus_acl<id>):
    // an "older is the baseline" guess would swap the labels.
    IncusClient projectB = incus.inProject("ac-" + b);
    var network = projectB.networks().getTagged("default");
    Map<String, String> config = new java.util.HashMap<>(network.value().config());
    String acls = config.get("security.acls");
    config.put("security.acls", acls.replace("baseline,", ""));
    projectB.networks().update("default", network.value().description(), config, network.etag());
    var baseline = projectB.networkAcls().get("baseline");
    projectB.networkAcls().delete("baseline");
    projectB.networkAcls().create(baseline);
    config.put("security.acls", acls);
    projectB.networks().update("default", network.value().description(), config, null);

    // An agent drop of exactly the shape of a baseline drop.
    String twin = service.addAclRule(b, "default", "egress", "drop", "", "", "10.10.10.0/24", "");
    OvnNetCapabilities.InspectOutput inspection = inspect(b, "default");
    assertThat(inspection.rules())
        .filteredOn(r -> r.match().contains("10.10.10.0/24"))
        .extracting(OvnNetCapabilities.RuleView::acl, OvnNetCapabilities.RuleView::id)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("baseline", "baseline-egress-mgmt"),
            org.assertj.core.groups.Tuple.tuple("agent", twin));
    String baselineGroup = groupOf(inspection, "baseline");
    String agentGroup = groupOf(inspection, "agent");
    assertThat(aclNumber(baselineGroup))
        .as(
            "the rows labelled baseline are on the re-made, so higher-numbered, baseline port"
                + " group")
        .isGreaterThan(aclNumber(agentGroup));
    assertThat(inspection.rules())
        .filteredOn(r -> r.acl().equals("baseline"))
        .allSatisfy(
            r ->
                assertThat(r.match())
                    .contains("@" + baselineGroup + ")")
                    .doesNotContain(agentGroup + ")"));
    assertThat(inspection.rules())
        .filteredOn(r -> r.acl().equals("baseline") && !r.id().isEmpty())
        .extracting(OvnNetCapabilities.RuleView::id)
        .containsExactlyInAnyOrder(
            "baseline-egress-mgmt", "baseline-egress-oob", "baseline-egress-2");

    // Once the agent ACL holds every baseline rule too, nothing in the rules tells them apart, and
    // on a one-network sandbox neither does the number of networks: inspect says so instead of
    // guessing.
    String oob = service.addAclRule(b, "default", "egress", "drop", "", "", "10.10.70.0/24", "");
    String vault = service.addAclRule(b, "default", "egress", "drop", "", "", vaultCidr, "");
    assertThatThrownBy(() -> service.inspect(b, "default"))
        .isInstanceOf(BackendException.class)
        .hasMessageStartingWith("cannot tell the baseline from the agent ACL of network default");
    // On sandbox A the baseline is on three networks and the agent ACL on one: that decides.
    List<String> copies = new ArrayList<>();
    for (String dst : List.of("10.10.10.0/24", "10.10.70.0/24", vaultCidr)) {
      copies.add(service.addAclRule(a, "default", "egress", "drop", "", "", dst, ""));
    }
    OvnNetCapabilities.InspectOutput inA = inspect(a, "default");
    assertThat(inA.rules())
        .filteredOn(r -> r.acl().equals("agent"))
        .extracting(OvnNetCapabilities.RuleView::id)
        .containsAll(copies);
    assertThat(inA.rules())
        .filteredOn(r -> r.acl().equals("baseline") && !r.id().isEmpty())
        .extracting(OvnNetCapabilities.RuleView::id)
        .containsExactlyInAnyOrder(
            "baseline-egress-mgmt", "baseline-egress-oob", "baseline-egress-2");
    String baselineOfA = groupOf(inA, "baseline");
    assertThat(northbound.list(dev.agentcompute.ovn.NbTable.PORT_GROUP))
        .filteredOn(g -> baselineOfA.equals(g.externalIds().get("incus_port_group")))
        .as("the port group labelled baseline is the one on all of sandbox A's networks")
        .hasSize(3);
    for (String id : copies) {
      service.removeAclRule(a, "default", id);
    }
    for (String id : List.of(twin, oob, vault)) {
      service.removeAclRule(b, "default", id);
    }
  }

  /** The one port group ({@code incus_acl<id>}) the rows labelled {@code acl} are matched on. */
  private static String groupOf(OvnNetCapabilities.InspectOutput inspection, String acl) {
    List<String> groups =
        inspection.rules().stream()
            .filter(r -> r.acl().equals(acl))
            .map(r -> java.util.regex.Pattern.compile("@(incus_acl\\d+)").matcher(r.match()))
            .filter(java.util.regex.Matcher::find)
            .map(m -> m.group(1))
            .distinct()
            .toList();
    assertThat(groups).as("port groups of the %s rows", acl).hasSize(1);
    return groups.getFirst();
  }

  private static long aclNumber(String group) {
    return Long.parseLong(group.substring("incus_acl".length()));
  }

  @Test
  @Order(6)
  void forwardReachesAContainerPortFromTheHost() throws Exception {
    // Addresses the northbound database holds outside Incus: a load-balancer VIP and a NAT rule
    // take the first two addresses of the range, so the forward gets the third.
    Operation.Insert nat =
        Operation.insert("NAT")
            .value("type", "dnat_and_snat")
            .value("external_ip", "10.90.1." + (rangeStart + 1))
            .value("logical_ip", "10.212.250.9")
            .uuidName("itnat");
    northbound.transact(
        Operation.insert("Load_Balancer")
            .value("name", NB_ROWS)
            .value("vips", Map.of("10.90.1." + rangeStart + ":80", "10.212.250.9:80")),
        nat,
        Operation.insert("Logical_Router")
            .value("name", NB_ROWS)
            .value("nat", java.util.Set.of(nat.ref())));
    // TCP over the userspace datapath needs TX checksum offload off in the container (docs/ovn.md).
    long pid = incus.inProject("ac-" + a).instances().state("a1").pid();
    run("nsenter", "-t", Long.toString(pid), "-n", "ethtool", "-K", "eth0", "tx", "off");
    // setsid: the server must outlive the exec session.
    exec(
        a,
        "a1",
        "setsid sh -c 'while true; do echo hello-from-a1 | nc -l -p 8080; done' </dev/null"
            + " >/dev/null 2>&1 &");
    OvnNetCapabilities.ForwardOutput forward =
        call(
            "net.forward",
            new OvnNetCapabilities.ForwardInput(
                a, "default", "a1", 8080, OptionalLong.of(18080), Optional.empty()));
    assertThat(forward.port()).isEqualTo(18080);
    assertThat(forward.address()).isEqualTo("10.90.1." + (rangeStart + 2));
    String uplinkAddress =
        incus
            .inProject("ac-" + a)
            .networks()
            .get("default")
            .config()
            .get("volatile.network.ipv4.address");
    String route = forward.address() + "/32";
    routes.add(route);
    run("ip", "route", "replace", route, "via", uplinkAddress, "dev", "acovnup0");
    assertThat(readBanner(forward.address(), 18080)).isEqualTo("hello-from-a1");

    // A second forward on the network reuses the address; the same listen port again is refused.
    OvnNetCapabilities.ForwardOutput second =
        call(
            "net.forward",
            new OvnNetCapabilities.ForwardInput(
                a, "default", "a1", 8080, OptionalLong.of(18081), Optional.empty()));
    assertThat(second.address()).isEqualTo(forward.address());
    assertThatThrownBy(
            () ->
                call(
                    "net.forward",
                    new OvnNetCapabilities.ForwardInput(
                        a, "default", "a1", 8080, OptionalLong.of(18081), Optional.empty())))
        .hasMessageContaining("already forwarded");
    fails(
        () -> service.forward(a, "side", "a1", 80, null, "tcp"),
        "instance \"a1\" has no NIC on network \"side\"");
    fails(
        () -> service.forward(a, "default", "ghost", 80, null, "tcp"),
        "instance \"ghost\" not found in sandbox \"" + a + "\"");
    fails(
        () -> service.forward(a, "nowhere", "a1", 80, null, "tcp"),
        "network \"nowhere\" not found in sandbox \"" + a + "\"");
  }

  private static String readBanner(String address, int port) throws InterruptedException {
    AssertionError last = null;
    for (int attempt = 0; attempt < 20; attempt++) {
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress(address, port), 2000);
        socket.setSoTimeout(3000);
        InputStream in = socket.getInputStream();
        String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!text.isEmpty()) {
          return text;
        }
      } catch (IOException e) {
        last = new AssertionError("connect to " + address + ":" + port + " failed", e);
      }
      Thread.sleep(500);
    }
    throw last != null ? last : new AssertionError("no banner from " + address + ":" + port);
  }

  @Test
  @Order(7)
  void natFalseNetworksHaveNoUplinkAndRefuseForwards() {
    SandboxNetwork iso =
        service.createNetwork(
            a, new NetworkPlan("iso", NetworkKind.OVN, isoCidr, true, false, true));
    assertThat(iso.cidr()).isEqualTo(isoCidr.replace(".0/24", ".1/24"));
    var config = incus.inProject("ac-" + a).networks().get("iso").config();
    assertThat(config).containsEntry("network", "none").containsEntry("ipv4.nat", "false");
    assertThat(config.getOrDefault("volatile.network.ipv4.address", "")).isEmpty();
    fails(
        () -> service.forward(a, "iso", "a1", 80, null, "tcp"),
        "net.forward requires a NAT-enabled network; nat=false networks have no uplink");
  }

  @Test
  @Order(8)
  void deleteRules() {
    fails(
        () -> service.deleteNetwork(a, "side"),
        "network \"side\" still has attached NICs in sandbox \"" + a + "\"");
    service.deleteNetwork(a, "iso");
    assertThat(service.listNetworks(a)).extracting(SandboxNetwork::name).doesNotContain("iso");
    assertThat(incus.inProject("ac-" + a).networkAcls().list())
        .extracting(acl -> acl.config().get("user.agentcompute.name"))
        .as("the agent ACL of a deleted network is deleted with it")
        .doesNotContain("iso")
        .contains("side", "baseline");
    fails(
        () -> service.deleteNetwork(a, "iso"),
        "network \"iso\" not found in sandbox \"" + a + "\"");
    fails(() -> service.getNetwork(a, "iso"), "network \"iso\" not found in sandbox \"" + a + "\"");
    fails(
        () ->
            service.createNetwork(
                a, new NetworkPlan("x", NetworkKind.OVN, "10.1.1.1/32", true, true, true)),
        "invalid cidr \"10.1.1.1/32\"");
    fails(
        () ->
            service.createNetwork(
                a, new NetworkPlan("x", NetworkKind.OVN, "10.10.10.0/24", true, true, true)),
        "cidr \"10.10.10.0/24\" overlaps the protected range 10.10.10.0/24");
    Ipv4Cidr uplink =
        Ipv4Cidr.parse(incus.networks().get(UPLINK).config().get("ipv4.gateway"))
            .orElseThrow()
            .network();
    fails(
        () ->
            service.createNetwork(
                a, new NetworkPlan("x", NetworkKind.OVN, uplink.toString(), true, true, true)),
        "cidr \"" + uplink + "\" overlaps the OVN uplink network " + uplink);
    assertThat(service.listNetworks(a)).extracting(SandboxNetwork::name).doesNotContain("x");
    // A network in the project that the sandbox does not own (no tags) is never adopted.
    String foreign = "10.212." + (rangeStart + 16 + 3) + ".1/24";
    incus
        .inProject("ac-" + a)
        .networks()
        .create(
            new dev.agentcompute.incus.NetworkSpec(
                "stray",
                "ovn",
                null,
                Map.of("network", "none", "ipv4.address", foreign, "ipv6.address", "none")));
    try {
      fails(
          () ->
              service.createNetwork(
                  a, new NetworkPlan("stray", NetworkKind.OVN, foreign, true, false, true)),
          "network \"stray\" is not owned by sandbox \"" + a + "\"");
      assertThat(service.listNetworks(a)).extracting(SandboxNetwork::name).doesNotContain("stray");
    } finally {
      incus.inProject("ac-" + a).networks().delete("stray");
    }
  }

  @Test
  @Order(9)
  void attachAndDetachOnOvnNetworks() throws Exception {
    SandboxInstance.Nic nic = service.attach(a, "a2", "default", "", "", "");
    assertThat(nic.name()).isEqualTo("eth1");
    SandboxInstance a2 = service.findInstance(a, "a2").orElseThrow();
    assertThat(a2.nics())
        .extracting(SandboxInstance.Nic::network)
        .containsExactlyInAnyOrder("side", "default");
    fails(
        () -> service.attach(a, "a2", "default", "eth1", "", ""),
        "nic \"eth1\" already exists on instance \"a2\"");
    fails(
        () -> service.attach(a, "a2", "nowhere", "", "", ""),
        "network \"nowhere\" not found in sandbox \"" + a + "\"");
    service.detach(a, "a2", "eth1");
    fails(
        () -> service.detach(a, "a2", "eth1"),
        "nic \"eth1\" not found on instance \"a2\" in sandbox \"" + a + "\"");
  }

  @Test
  @Order(10)
  void readinessIncludesTheNorthboundConnection() {
    assertThat(runtime.ready()).isTrue();
    try (OvnNorthbound dead =
            OvnNorthbound.start(
                OvsdbEndpoint.parse(
                    "unix:" + IncusHarness.root().resolve(".state/ovn/no-such-nb.sock")),
                OvsdbOptions.defaults());
        IncusPlatform backend = IncusPlatform.over(incus, runtime.compute().config(), dead)) {
      assertThat(backend.ready())
          .as("incusd answers but the northbound database does not")
          .isFalse();
    }
  }

  private static OvnNetCapabilities.InspectOutput inspect(String sandbox, String network) {
    return call("net.inspect", new OvnNetCapabilities.InspectInput(sandbox, network));
  }
}
