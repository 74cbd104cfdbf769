package dev.agentcompute.capabilities.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.adapter.instance.InstanceCapabilities;
import dev.agentcompute.capabilities.adapter.net.OvnNetCapabilities;
import dev.agentcompute.capabilities.model.AgentFacingException;
import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.Ipv4Cidr;
import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.NetworkPlan;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.model.SubnetPool;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.NetworkForward;
import dev.agentcompute.ovn.OvnNorthbound;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * net.forward's allocation when things go wrong (docs/reference/capabilities.md#netforward), on the
 * real incusd and OVN stack. The backend talks to incusd through {@link OvnFaultRelay}: one forward
 * creation reaches Incus but its answer is lost, another finds its address taken by someone else
 * between choosing and creating. Also: a range with no free address left, and a listen port that is
 * already forwarded, as the agent sees them. One sandbox with three OVN networks and two containers
 * serves all tests.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OvnForwardsIT {
  private static final Pattern LISTEN_ADDRESS =
      Pattern.compile("\"listen_address\"\\s*:\\s*\"([^\"]+)\"");

  private static OvnTestStack.Relayed stack;
  private static IncusClient incus;
  private static OvnNorthbound northbound;
  private static OvnFaultRelay relay;
  private static ComputeRuntime runtime;
  private static ComputeCalls service;
  private static List<CapabilityDefinition<?, ?>> caps;
  private static Server agent;
  private static String sandbox;
  private static String project;

  /** The address whose creation answer was lost: the default network's forward. */
  private static String lostAddress;

  @BeforeAll
  static void start() throws Exception {
    int first =
        ThreadLocalRandom.current().nextInt(0, 239); // this run's 16 addresses of the uplink routes
    stack =
        OvnTestStack.Relayed.start(
            "ovnfwd",
            IncusHarness.config()
                .withDefaultNetworkKind(NetworkKind.OVN)
                .withOvnUplink(OvnTestStack.UPLINK)
                .withOvnRanges("10.90.1." + first + "-10.90.1." + Math.min(first + 15, 254))
                .withBridgeSubnets(SubnetPool.parse("10.214.0.0/16", 24)));
    incus = stack.incus();
    northbound = stack.northbound();
    relay = stack.relay();
    runtime = stack.runtime();
    service = new ComputeCalls(runtime);
    caps = runtime.capabilities();
    agent = OvnTestStack.codeMode(caps);
    sandbox = IncusHarness.uniqueName("itovnfwd");
    project = "ac-" + sandbox;
    service.createSandbox(OvnTestStack.OPERATOR.id(), sandbox, "", 60, false);
    service.createNetwork(sandbox, new NetworkPlan("side", NetworkKind.OVN, "", true, true, true));
    service.createNetwork(sandbox, new NetworkPlan("thief", NetworkKind.OVN, "", true, true, true));
    container("web", "default");
    container("web2", "side");
    address("web", "default");
    address("web2", "side");
  }

  @AfterAll
  static void stop() throws Exception {
    if (runtime == null) {
      return;
    }
    try {
      relay.clear();
      service.deleteSandbox(sandbox);
      assertThat(service.findSandbox(sandbox)).as("sandbox %s is gone", sandbox).isEmpty();
    } finally {
      agent.close();
      stack.close();
    }
  }

  private static void container(String name, String network) {
    IncusHarness.call(
        caps,
        OvnTestStack.OPERATOR.id(),
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

  /** Waits for the container's DHCP address on {@code network}: forwards target it. */
  private static void address(String instance, String network) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (System.nanoTime() < end) {
      Optional<SandboxInstance> found = service.findInstance(sandbox, instance);
      if (found.stream()
          .flatMap(i -> i.nics().stream())
          .filter(n -> n.network().equals(network))
          .flatMap(n -> n.addresses().stream())
          .anyMatch(s -> Ipv4Cidr.parseAddress(s).isPresent())) {
        return;
      }
      Thread.sleep(500);
    }
    throw new AssertionError("no IPv4 on " + instance + "/" + network + " after 90 s");
  }

  private static OvnNetCapabilities.ForwardOutput forward(
      String network, String instance, int port, int listenPort) {
    return IncusHarness.call(
        caps,
        OvnTestStack.OPERATOR.id(),
        "net.forward",
        new OvnNetCapabilities.ForwardInput(
            sandbox, network, instance, port, OptionalLong.of(listenPort), Optional.empty()));
  }

  private static String forwardProgram(String network, String instance, int port, int listenPort) {
    return """
    def main():
        return net.forward(sandbox="%s", network="%s", instance="%s", port=%d, listen_port=%d)
    """
        .formatted(sandbox, network, instance, port, listenPort);
  }

  private static boolean isCreate(OvnFaultRelay.Request request, String network) {
    return request.is("POST", "/1.0/networks/" + network + "/forwards");
  }

  private static String listenAddress(OvnFaultRelay.Request request) {
    Matcher m = LISTEN_ADDRESS.matcher(request.bodyText());
    assertThat(m.find()).as("listen_address in %s", request.bodyText()).isTrue();
    return m.group(1);
  }

  private static List<NetworkForward> forwardsOn(String network) {
    return incus.inProject(project).networks().forwards(network);
  }

  private static long ipv4(String address) {
    long value = 0;
    for (String part : address.split("\\.")) {
      value = value * 256 + Integer.parseInt(part);
    }
    return value;
  }

  @Test
  @Order(1)
  void anUncertainCreateReturnsTheFailureAndNeverCreatesASecondForward() {
    relay.once(r -> isCreate(r, "default"), r -> new OvnFaultRelay.Lose());

    assertThat(OvnTestStack.agentSees(agent, forwardProgram("default", "web", 8080, 18080)))
        .isEqualTo("capability failed");

    List<OvnFaultRelay.Request> creates = relay.seen(r -> isCreate(r, "default"));
    assertThat(creates).as("one creation, never a second").hasSize(1);
    lostAddress = listenAddress(creates.getFirst());
    assertThat(forwardsOn("default"))
        .as("the lost answer's forward exists: Incus made it")
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.listenAddress()).isEqualTo(lostAddress);
              assertThat(f.ports())
                  .extracting(NetworkForward.Port::listenPort)
                  .containsExactly("18080");
            });

    // The next forward on the network finds it and adds its port there.
    OvnNetCapabilities.ForwardOutput next = forward("default", "web", 8080, 18081);
    assertThat(next.address()).isEqualTo(lostAddress);
    assertThat(relay.seen(r -> isCreate(r, "default"))).hasSize(1);
    assertThat(forwardsOn("default"))
        .singleElement()
        .satisfies(
            f ->
                assertThat(f.ports())
                    .extracting(NetworkForward.Port::listenPort)
                    .containsExactly("18080", "18081"));
  }

  @Test
  @Order(2)
  void aRangeWithNoFreeAddressLeftFails() throws Exception {
    // A range of one address, already held by the default network's forward.
    String range = lostAddress + "-" + lostAddress;
    try (ComputeRuntime full =
            ComputeRuntime.startIncus(
                runtime.compute().config().withOvnRanges(range), incus, northbound);
        Server fullAgent = OvnTestStack.codeMode(full.capabilities())) {
      assertThatThrownBy(
              () -> new ComputeCalls(full).forward(sandbox, "side", "web2", 80, null, "tcp"))
          .isInstanceOf(BackendException.class)
          .hasMessage("no free address remains in the OVN range");
      assertThat(OvnTestStack.agentSees(fullAgent, forwardProgram("side", "web2", 80, 80)))
          .as("a plain failure: the agent reads no backend detail")
          .isEqualTo("capability failed");
    }
    assertThat(forwardsOn("side")).isEmpty();
  }

  @Test
  @Order(2)
  void withoutTheSitesForwardRangeTheAgentIsToldWhichSettingIsMissing() throws Exception {
    // incus.ovn_ranges is a site's own addresses and has no default
    try (ComputeRuntime noRange =
            ComputeRuntime.startIncus(
                runtime.compute().config().withOvnRanges(""), incus, northbound);
        Server noRangeAgent = OvnTestStack.codeMode(noRange.capabilities())) {
      String text =
          "net.forward needs the site's forward addresses, and this server has none"
              + " (incus.ovn_ranges): ask the operator to configure them";
      assertThatThrownBy(
              () -> new ComputeCalls(noRange).forward(sandbox, "side", "web2", 80, null, "tcp"))
          .isInstanceOf(AgentFacingException.class)
          .hasMessage(text);
      assertThat(OvnTestStack.agentSees(noRangeAgent, forwardProgram("side", "web2", 80, 80)))
          .isEqualTo("capability failed: " + text);
    }
    assertThat(forwardsOn("side")).isEmpty();
  }

  @Test
  @Order(3)
  void anAddressTakenMeanwhileIsSkippedForTheNextFreeOne() {
    // Between choosing an address and creating the forward, another network's forward takes it.
    relay.once(
        r -> isCreate(r, "side"),
        r -> {
          incus
              .inProject(project)
              .networks()
              .createForward(
                  "thief",
                  new NetworkForward(
                      listenAddress(r), "taken meanwhile", Map.of(), List.of(), null));
          return new OvnFaultRelay.Pass();
        });

    OvnNetCapabilities.ForwardOutput forward = forward("side", "web2", 8080, 18080);

    List<OvnFaultRelay.Request> creates = relay.seen(r -> isCreate(r, "side"));
    assertThat(creates).as("refused at the taken address, then created at the next").hasSize(2);
    String taken = listenAddress(creates.get(0));
    assertThat(listenAddress(creates.get(1))).isEqualTo(forward.address());
    assertThat(ipv4(forward.address())).isGreaterThan(ipv4(taken));
    assertThat(forwardsOn("thief"))
        .extracting(NetworkForward::listenAddress)
        .containsExactly(taken);
    assertThat(forwardsOn("side"))
        .extracting(NetworkForward::listenAddress)
        .containsExactly(forward.address());
    assertThat(forward.port()).isEqualTo(18080);
  }

  @Test
  @Order(4)
  void aListenPortForwardedAlreadyIsRefused() {
    assertThatThrownBy(() -> service.forward(sandbox, "default", "web", 8080, 18081L, "tcp"))
        .isInstanceOf(BackendException.class)
        .hasMessage("listen port 18081/tcp is already forwarded on " + lostAddress);
    assertThat(OvnTestStack.agentSees(agent, forwardProgram("default", "web", 9090, 18081)))
        .as("a plain failure (net.forward)")
        .isEqualTo("capability failed");
    assertThat(forwardsOn("default"))
        .singleElement()
        .satisfies(f -> assertThat(f.ports()).hasSize(2));
  }

  @Test
  @Order(5)
  void anInstanceWithoutAnAddressOnTheNetworkIsRefused() {
    // A NIC on a network without DHCP: the guest has no IPv4 there. OVN still reserves it an
    // address that Incus lists as a lease; the relay hides that lease, as when no address is known
    // at all.
    service.createNetwork(sandbox, new NetworkPlan("bare", NetworkKind.OVN, "", false, true, true));
    service.attach(sandbox, "web2", "bare", "eth1", null, null);
    relay.always(
        r -> r.is("GET", "/1.0/networks/bare/leases"),
        r ->
            new OvnFaultRelay.Rewrite(
                body -> body.replaceFirst("(?s)\"metadata\"\\s*:\\s*\\[.*\\]", "\"metadata\":[]")));
    try {
      assertThatThrownBy(() -> service.forward(sandbox, "bare", "web2", 80, null, "tcp"))
          .isInstanceOf(BackendException.class)
          .hasMessage("instance web2 has no address on network bare");
      assertThat(OvnTestStack.agentSees(agent, forwardProgram("bare", "web2", 80, 80)))
          .as("a plain failure (no free address)")
          .isEqualTo("capability failed");
      assertThat(forwardsOn("bare")).isEmpty();
    } finally {
      relay.clear();
    }
  }
}
