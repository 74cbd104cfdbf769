package dev.agentcompute.capabilities.compute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.net.NetworkKind;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The OVN error texts of spec §2.7 the service raises, and that it raises them before the backend is
 * asked to change anything. (What only Incus can tell, e.g. nat=false forwards, is in {@code OvnFabricIT}.)
 */
class OvnServiceErrorsTest {
  private final InMemoryBackend backend = new InMemoryBackend();
  private final ComputeServicePolicyTest.ManualClock clock = new ComputeServicePolicyTest.ManualClock();
  private final ComputeService ovn = service(NetworkKind.OVN);
  private final ComputeService bridge = service(NetworkKind.BRIDGE);

  private ComputeService service(NetworkKind kind) {
    return new ComputeService(backend, ComputeConfig.defaults().withDefaultNetworkKind(kind),
        ImageCatalog.parse("schema_version: 1\nimages: []\n"), clock, new SplittableRandom(7));
  }

  private void sandboxes() {
    ovn.createSandbox("dev", "lab", "", 0, false);
    bridge.createSandbox("dev", "plain", "", 0, false);
    backend.calls.clear();
  }

  @Test
  void peerErrors() {
    sandboxes();
    assertThatThrownBy(() -> ovn.peer("lab", "default", "default")).hasMessage("peer network must be different");
    assertThatThrownBy(() -> ovn.peer("plain", "default", "other"))
        .hasMessage("network peering requires OVN networks");
    assertThatThrownBy(() -> ovn.peer("lab", "default", "other"))
        .hasMessage("network \"other\" not found in sandbox \"lab\"");
    assertThatThrownBy(() -> ovn.peer("nope", "default", "other")).hasMessage("sandbox \"nope\" not found");
    assertThat(backend.calls).noneMatch(c -> c.startsWith("peer"));
  }

  @Test
  void aclValidationComesFirst() {
    sandboxes();
    assertThatThrownBy(() -> ovn.addAclRule("nope", "default", "sideways", "drop", "", "", "", ""))
        .hasMessage("direction \"sideways\" is not supported");
    assertThatThrownBy(() -> ovn.addAclRule("lab", "default", "egress", "permit", "", "", "", ""))
        .hasMessage("action \"permit\" is not supported");
    assertThatThrownBy(() -> ovn.addAclRule("lab", "default", "egress", "drop", "sctp", "", "", ""))
        .hasMessage("protocol \"sctp\" is not supported");
    assertThatThrownBy(() -> ovn.addAclRule("lab", "default", "egress", "drop", "icmp", "", "", "80"))
        .hasMessage("port requires tcp or udp");
    assertThatThrownBy(() -> ovn.addAclRule("lab", "default", "egress", "allow", "tcp", "", "10.10.10.7", "22"))
        .hasMessage("allow requires an explicit destination outside management and OOB ranges");
    assertThat(backend.calls).isEmpty();
    assertThatThrownBy(() -> ovn.addAclRule("plain", "default", "egress", "drop", "", "", "", ""))
        .hasMessage("network ACLs require OVN networks");
    assertThatThrownBy(() -> ovn.addAclRule("lab", "other", "egress", "drop", "", "", "", ""))
        .hasMessage("network \"other\" not found in sandbox \"lab\"");
    assertThat(ovn.addAclRule("lab", "default", "egress", "allow", "tcp", "", "10.212.0.0/16", "80"))
        .isEqualTo("r-0000000000000001");
    assertThat(backend.calls).contains("acl add default allow");
  }

  @Test
  void aclRemoveErrors() {
    sandboxes();
    assertThatThrownBy(() -> ovn.removeAclRule("lab", "default", "")).hasMessage("rule is required");
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
    assertThatThrownBy(() -> ovn.forward("lab", "default", "web", 0, null, ""))
        .hasMessage("port must be between 1 and 65535");
    assertThatThrownBy(() -> ovn.forward("lab", "default", "web", 65536, null, ""))
        .hasMessage("port must be between 1 and 65535");
    assertThatThrownBy(() -> ovn.forward("lab", "default", "web", 80, 0L, ""))
        .hasMessage("listen_port must be between 1 and 65535");
    assertThatThrownBy(() -> ovn.forward("lab", "default", "web", 80, 70000L, ""))
        .hasMessage("listen_port must be between 1 and 65535");
    assertThatThrownBy(() -> ovn.forward("lab", "default", "web", 80, null, "icmp"))
        .hasMessage("protocol \"icmp\" is not supported");
    assertThat(backend.calls).isEmpty();
    assertThatThrownBy(() -> ovn.forward("plain", "default", "web", 80, null, ""))
        .hasMessage("port forwards require an OVN network");
    assertThat(ovn.forward("lab", "default", "web", 80, null, "")).isEqualTo(new Forward("192.0.2.1", 80));
    assertThat(backend.calls).contains("forward default web 80 80 tcp");
  }

  @Test
  void expiredSandboxesRefuseChanges() {
    sandboxes();
    clock.advance(Duration.ofDays(2));
    assertThatThrownBy(() -> ovn.peer("lab", "default", "other")).hasMessage("sandbox \"lab\" has expired");
    assertThatThrownBy(() -> ovn.addAclRule("lab", "default", "egress", "drop", "", "", "", ""))
        .hasMessage("sandbox \"lab\" has expired");
    assertThatThrownBy(() -> ovn.forward("lab", "default", "web", 80, null, ""))
        .hasMessage("sandbox \"lab\" has expired");
  }

  @Test
  void ovnCidrRule() {
    sandboxes();
    assertThatThrownBy(() -> ovn.createNetwork("lab", new NetworkSpec("n1", NetworkKind.OVN, "10.1.2.3/32", true,
        true, true))).hasMessage("invalid cidr \"10.1.2.3/32\"");
    assertThatThrownBy(() -> ovn.createNetwork("lab", new NetworkSpec("n1", NetworkKind.OVN, "0.0.0.0/0", true,
        true, true))).hasMessage("invalid cidr \"0.0.0.0/0\"");
    assertThatThrownBy(() -> ovn.createNetwork("lab", new NetworkSpec("n1", NetworkKind.BRIDGE, "", false,
        false, false))).hasMessage("cannot create a \"bridge\" network in a \"ovn\" sandbox");
    assertThatThrownBy(() -> ovn.createNetwork("plain", new NetworkSpec("n1", NetworkKind.OVN, "", true,
        true, true))).hasMessage("cannot create a \"ovn\" network in a \"bridge\" sandbox");
    assertThatThrownBy(() -> ovn.inspect("plain", "default")).hasMessage("net.inspect requires OVN networks");
  }
}
