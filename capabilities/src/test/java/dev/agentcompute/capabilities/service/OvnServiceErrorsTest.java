package dev.agentcompute.capabilities.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.ComputeCapabilities;
import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.adapter.net.OvnNetCapabilities;
import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.NetworkPlan;
import dev.agentcompute.capabilities.model.PortForward;
import dev.agentcompute.capabilities.platform.PlatformRouter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The OVN error texts of docs/reference/capabilities.md#networks the services (and, for the closed
 * sets and port ranges, the capability adapters in front of them) raise, and that they raise them
 * before the platform is asked to change anything. (What only Incus can tell, e.g. nat=false
 * forwards, is in {@code OvnFabricIT}.)
 */
class OvnServiceErrorsTest {
  private final InMemoryPlatform backend = new InMemoryPlatform();
  private final SandboxPolicyTest.ManualClock clock = new SandboxPolicyTest.ManualClock();
  private final Compute ovnCompute = compute(NetworkKind.OVN);
  private final NetworkService ovn = ovnCompute.networks();
  private final Compute bridge = compute(NetworkKind.BRIDGE);

  private Compute compute(NetworkKind kind) {
    return Compute.over(
        new PlatformRouter(List.of(backend.platform())),
        ComputeConfig.defaults()
            .withDefaultNetworkKind(kind)
            .withProtectedRanges(
                List.of(
                    dev.agentcompute.capabilities.model.Ipv4Cidr.parse("10.10.10.0/24")
                        .orElseThrow())),
        ImageCatalog.parse("schema_version: 1\nimages: []\n"),
        clock,
        new SplittableRandom(7));
  }

  /** Calls a capability as the agent does, through its adapter. */
  private Object call(String capability, Record input) {
    CapabilityDefinition<?, ?> definition =
        ComputeCapabilities.definitions(ovnCompute).stream()
            .filter(d -> d.name().equals(capability))
            .findFirst()
            .orElseThrow();
    return definition.invoke("dev", input);
  }

  private String addAclRule(
      String sandbox,
      String network,
      String direction,
      String action,
      String protocol,
      String src,
      String dst,
      String port) {
    return ((OvnNetCapabilities.AclAddOutput)
            call(
                "net.acl.add",
                new OvnNetCapabilities.AclAddInput(
                    sandbox,
                    network,
                    direction,
                    action,
                    Optional.of(protocol),
                    Optional.of(src),
                    Optional.of(dst),
                    Optional.of(port))))
        .rule();
  }

  private PortForward forward(
      String sandbox, String network, String instance, long port, Long listen, String protocol) {
    OvnNetCapabilities.ForwardOutput out =
        (OvnNetCapabilities.ForwardOutput)
            call(
                "net.forward",
                new OvnNetCapabilities.ForwardInput(
                    sandbox,
                    network,
                    instance,
                    port,
                    listen == null ? OptionalLong.empty() : OptionalLong.of(listen),
                    Optional.of(protocol)));
    return new PortForward(out.address(), (int) out.port());
  }

  private void sandboxes() {
    ovnCompute.sandboxes().create("dev", "lab", "", 0, false);
    bridge.sandboxes().create("dev", "plain", "", 0, false);
    backend.calls.clear();
  }

  @Test
  void peerErrors() {
    sandboxes();
    assertThatThrownBy(() -> ovn.peer("lab", "default", "default"))
        .hasMessage("peer network must be different");
    assertThatThrownBy(() -> ovn.peer("plain", "default", "other"))
        .hasMessage("network peering requires OVN networks");
    assertThatThrownBy(() -> ovn.peer("lab", "default", "other"))
        .hasMessage("network \"other\" not found in sandbox \"lab\"");
    assertThatThrownBy(() -> ovn.peer("nope", "default", "other"))
        .hasMessage("sandbox \"nope\" not found");
    assertThat(backend.calls).noneMatch(c -> c.startsWith("peer"));
  }

  @Test
  void aclValidationComesFirst() {
    sandboxes();
    assertThatThrownBy(() -> addAclRule("nope", "default", "sideways", "drop", "", "", "", ""))
        .hasMessage("direction \"sideways\" is not supported");
    assertThatThrownBy(() -> addAclRule("lab", "default", "egress", "permit", "", "", "", ""))
        .hasMessage("action \"permit\" is not supported");
    assertThatThrownBy(() -> addAclRule("lab", "default", "egress", "drop", "sctp", "", "", ""))
        .hasMessage("protocol \"sctp\" is not supported");
    assertThatThrownBy(() -> addAclRule("lab", "default", "egress", "drop", "icmp", "", "", "80"))
        .hasMessage("port requires tcp or udp");
    assertThatThrownBy(
            () -> addAclRule("lab", "default", "egress", "allow", "tcp", "", "10.10.10.7", "22"))
        .hasMessage("allow requires an explicit destination outside management and OOB ranges");
    assertThat(backend.calls).isEmpty();
    assertThatThrownBy(() -> addAclRule("plain", "default", "egress", "drop", "", "", "", ""))
        .hasMessage("network ACLs require OVN networks");
    assertThatThrownBy(() -> addAclRule("lab", "other", "egress", "drop", "", "", "", ""))
        .hasMessage("network \"other\" not found in sandbox \"lab\"");
    assertThat(addAclRule("lab", "default", "egress", "allow", "tcp", "", "10.212.0.0/16", "80"))
        .isEqualTo("r-0000000000000001");
    assertThat(backend.calls).contains("acl add default allow");
  }

  @Test
  void aclRemoveErrors() {
    sandboxes();
    assertThatThrownBy(() -> ovn.removeAclRule("lab", "default", ""))
        .hasMessage("rule is required");
    assertThatThrownBy(() -> ovn.removeAclRule("lab", "default", "baseline-egress-mgmt"))
        .hasMessage("rule \"baseline-egress-mgmt\" is a baseline ACL and cannot be removed");
    assertThatThrownBy(() -> ovn.removeAclRule("lab", "default", "baseline-egress-oob"))
        .hasMessage("rule \"baseline-egress-oob\" is a baseline ACL and cannot be removed");
    assertThatThrownBy(() -> ovn.removeAclRule("plain", "default", "r-1"))
        .hasMessage("network ACLs require OVN networks");
    assertThat(backend.calls).noneMatch(c -> c.startsWith("acl"));
  }

  @Test
  void forwardErrors() {
    sandboxes();
    assertThatThrownBy(() -> forward("lab", "default", "web", 0, null, ""))
        .hasMessage("port must be between 1 and 65535");
    assertThatThrownBy(() -> forward("lab", "default", "web", 65536, null, ""))
        .hasMessage("port must be between 1 and 65535");
    assertThatThrownBy(() -> forward("lab", "default", "web", 80, 0L, ""))
        .hasMessage("listen_port must be between 1 and 65535");
    assertThatThrownBy(() -> forward("lab", "default", "web", 80, 70000L, ""))
        .hasMessage("listen_port must be between 1 and 65535");
    assertThatThrownBy(() -> forward("lab", "default", "web", 80, null, "icmp"))
        .hasMessage("protocol \"icmp\" is not supported");
    assertThat(backend.calls).isEmpty();
    assertThatThrownBy(() -> forward("plain", "default", "web", 80, null, ""))
        .hasMessage("port forwards require an OVN network");
    assertThat(forward("lab", "default", "web", 80, null, ""))
        .isEqualTo(new PortForward("192.0.2.1", 80));
    assertThat(backend.calls).contains("forward default web 80 80 tcp");
  }

  @Test
  void expiredSandboxesRefuseChanges() {
    sandboxes();
    clock.advance(Duration.ofDays(2));
    assertThatThrownBy(() -> ovn.peer("lab", "default", "other"))
        .hasMessage("sandbox \"lab\" has expired");
    assertThatThrownBy(() -> addAclRule("lab", "default", "egress", "drop", "", "", "", ""))
        .hasMessage("sandbox \"lab\" has expired");
    assertThatThrownBy(() -> forward("lab", "default", "web", 80, null, ""))
        .hasMessage("sandbox \"lab\" has expired");
  }

  @Test
  void ovnCidrRule() {
    sandboxes();
    assertThatThrownBy(
            () ->
                ovn.create(
                    "lab", new NetworkPlan("n1", NetworkKind.OVN, "10.1.2.3/32", true, true, true)))
        .hasMessage("invalid cidr \"10.1.2.3/32\"");
    assertThatThrownBy(
            () ->
                ovn.create(
                    "lab", new NetworkPlan("n1", NetworkKind.OVN, "0.0.0.0/0", true, true, true)))
        .hasMessage("invalid cidr \"0.0.0.0/0\"");
    assertThatThrownBy(
            () ->
                ovn.create(
                    "lab", new NetworkPlan("n1", NetworkKind.BRIDGE, "", false, false, false)))
        .hasMessage(
            "cannot create a \"bridge\" network in a \"ovn\" sandbox; leave kind out to get the"
                + " sandbox's \"ovn\"");
    assertThatThrownBy(
            () -> ovn.create("plain", new NetworkPlan("n1", NetworkKind.OVN, "", true, true, true)))
        .hasMessage(
            "cannot create a \"ovn\" network in a \"bridge\" sandbox; leave kind out to get the"
                + " sandbox's \"bridge\"");
    assertThatThrownBy(() -> ovn.inspect("plain", "default"))
        .hasMessage("net.inspect requires OVN networks");
  }
}
