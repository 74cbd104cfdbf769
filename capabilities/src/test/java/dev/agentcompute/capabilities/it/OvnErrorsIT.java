package dev.agentcompute.capabilities.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.incus.IncusPlatform;
import dev.agentcompute.capabilities.model.AgentFacingException;
import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.NetworkPlan;
import dev.agentcompute.capabilities.model.SandboxNetwork;
import dev.agentcompute.capabilities.model.SubnetPool;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.NetworkPeer;
import dev.agentcompute.ovn.OvnNorthbound;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The OVN fabric's backend error texts (docs/reference/capabilities.md#netcreate, #netpeer) on the
 * real incusd, through the service and as the agent reads them from the CodeMode engine:
 * agent-facing errors arrive as {@code capability failed: <text>}, plain ones as a bare {@code
 * capability failed}. One sandbox with two OVN networks serves all tests; no containers.
 */
class OvnErrorsIT {
  private static OvnTestStack.Relayed stack;
  private static IncusClient incus;
  private static OvnNorthbound northbound;
  private static OvnFaultRelay relay;
  private static ComputeRuntime runtime;
  private static ComputeCalls service;
  private static Server agent;
  private static String sandbox;
  private static String project;
  private static SandboxNetwork lab;

  @BeforeAll
  static void start() throws Exception {
    stack =
        OvnTestStack.Relayed.start(
            "ovnerr",
            IncusHarness.config()
                .withDefaultNetworkKind(NetworkKind.OVN)
                .withOvnUplink(OvnTestStack.UPLINK)
                .withBridgeSubnets(SubnetPool.parse("10.215.0.0/16", 24)));
    incus = stack.incus();
    northbound = stack.northbound();
    relay = stack.relay();
    runtime = stack.runtime();
    service = new ComputeCalls(runtime);
    agent = OvnTestStack.codeMode(runtime.capabilities());
    sandbox = IncusHarness.uniqueName("itovnerr");
    project = "ac-" + sandbox;
    service.createSandbox(OvnTestStack.OPERATOR.id(), sandbox, "", 60, false);
    lab =
        service.createNetwork(
            sandbox, new NetworkPlan("lab", NetworkKind.OVN, "", true, true, true));
    service.createNetwork(sandbox, new NetworkPlan("lab2", NetworkKind.OVN, "", true, true, true));
  }

  @AfterAll
  static void stop() throws Exception {
    if (runtime == null) {
      return;
    }
    try {
      service.deleteSandbox(sandbox);
      assertThat(service.findSandbox(sandbox)).as("sandbox %s is gone", sandbox).isEmpty();
    } finally {
      agent.close();
      stack.close();
    }
  }

  @AfterEach
  void noFaultsLeft() {
    relay.clear();
  }

  private static String create(String name, String extra) {
    return OvnTestStack.agentSees(
        agent,
        """
        def main():
            return net.create(sandbox="%s", name="%s"%s)
        """
            .formatted(sandbox, name, extra));
  }

  private static void refused(NetworkPlan spec, String key) {
    String text =
        "network \""
            + spec.name()
            + "\" already exists with a different "
            + key
            + " setting; delete it before recreating it";
    assertThatThrownBy(() -> service.createNetwork(sandbox, spec))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage(text);
  }

  /**
   * A site's uplink is no default: a server without one refuses an OVN sandbox before its project
   * exists, and an OVN network with NAT before anything is made; a network without NAT needs none.
   */
  @Test
  void withoutTheSitesUplinkOvnSandboxesAndNatNetworksAreRefusedLeavingNothing() {
    ComputeConfig noUplink = runtime.compute().config().withOvnUplink("");
    String refusedSandbox = IncusHarness.uniqueName("itnouplink");
    try (ComputeRuntime site =
        ComputeRuntime.prepare(
            noUplink,
            List.of(IncusPlatform.over(incus, noUplink, northbound).platform()),
            java.time.Clock.systemUTC())) {
      ComputeCalls calls = new ComputeCalls(site);
      assertThatThrownBy(
              () -> calls.createSandbox(OvnTestStack.OPERATOR.id(), refusedSandbox, "", 60, false))
          .isInstanceOf(AgentFacingException.class)
          .hasMessage(Errors.noOvnUplink().getMessage());
      assertThat(calls.findSandbox(refusedSandbox)).isEmpty();
      assertThat(incus.projects().list())
          .extracting(dev.agentcompute.incus.Project::name)
          .doesNotContain("ac-" + refusedSandbox);

      assertThatThrownBy(
              () ->
                  calls.createNetwork(
                      sandbox, new NetworkPlan("nouplink", NetworkKind.OVN, "", true, true, true)))
          .isInstanceOf(AgentFacingException.class)
          .hasMessage(
              "OVN networks with nat need the site's uplink network, and this server has none"
                  + " (incus.ovn_uplink): create the network with nat=false, or ask the operator"
                  + " to configure it");
      assertThat(calls.listNetworks(sandbox))
          .extracting(SandboxNetwork::name)
          .doesNotContain("nouplink");

      SandboxNetwork isolated =
          calls.createNetwork(
              sandbox, new NetworkPlan("nouplink", NetworkKind.OVN, "", true, false, true));
      assertThat(incus.inProject(project).networks().get(isolated.name()).config())
          .containsEntry("network", "none");
      calls.deleteNetwork(sandbox, "nouplink");
    }
  }

  @Test
  void aNetworkOfAnotherKindUnderTheNameIsRefused() {
    // Incus 6.0 keeps only OVN networks in a project, so the relay makes incusd's answer say what a
    // newer Incus (bridges in projects) would: "lab" is a bridge.
    relay.always(
        r -> r.is("GET", "/1.0/networks/lab"),
        r ->
            new OvnFaultRelay.Rewrite(
                body -> body.replaceFirst("\"type\"\\s*:\\s*\"ovn\"", "\"type\":\"bridge\"")));
    assertThatThrownBy(
            () ->
                service.createNetwork(
                    sandbox, new NetworkPlan("lab", NetworkKind.OVN, "", true, true, true)))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage("network \"lab\" already exists with a different kind");
    assertThat(create("lab", ""))
        .isEqualTo("capability failed: network \"lab\" already exists with a different kind");
  }

  @Test
  void aNetworkWithADifferentSettingIsRefusedAndAnIdenticalOneReturned() {
    assertThat(
            service.createNetwork(
                sandbox, new NetworkPlan("lab", NetworkKind.OVN, "", true, true, true)))
        .isEqualTo(lab);
    refused(new NetworkPlan("lab", NetworkKind.OVN, "", true, false, true), "network");
    refused(new NetworkPlan("lab", NetworkKind.OVN, "", false, true, true), "ipv4.dhcp");
    refused(new NetworkPlan("lab", NetworkKind.OVN, "", true, true, false), "dns.mode");
    String otherCidr = lab.cidr().startsWith("10.215.250.") ? "10.215.251.0/24" : "10.215.250.0/24";
    refused(new NetworkPlan("lab", NetworkKind.OVN, otherCidr, true, true, true), "ipv4.address");
    assertThat(create("lab", ", dhcp=False"))
        .isEqualTo(
            "capability failed: network \"lab\" already exists with a "
                + "different ipv4.dhcp setting; delete it before recreating it");
    assertThat(incus.inProject(project).networks().get("lab").config())
        .containsEntry("ipv4.dhcp", "true");
  }

  @Test
  void aPeerNameTakenByAPeerToAnotherNetworkIsRefused() {
    // "lab2" on lab already leads to the default network.
    incus
        .inProject(project)
        .networks()
        .createPeer("lab", NetworkPeer.local("lab2", project, "default", Map.of()));
    try {
      assertThatThrownBy(() -> service.peer(sandbox, "lab", "lab2"))
          .isInstanceOf(BackendException.class)
          .hasMessage("peer \"lab2\" already exists on network \"lab\"");
      assertThat(
              OvnTestStack.agentSees(
                  agent,
                  """
                  def main():
                      return net.peer(sandbox="%s", network="lab", peer="lab2")
                  """
                      .formatted(sandbox)))
          .as("a plain failure (a peer leading elsewhere)")
          .isEqualTo("capability failed");
      assertThat(incus.inProject(project).networks().peers("lab2"))
          .as("nothing was peered the other way")
          .isEmpty();
      assertThat(incus.inProject(project).networks().peer("lab", "lab2").targetNetwork())
          .isEqualTo("default");
    } finally {
      incus.inProject(project).networks().deletePeer("lab", "lab2");
    }
  }
}
