package dev.agentcompute.capabilities.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.SubnetPool;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Server;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * desktop.info's VNC endpoint in an OVN sandbox (about 20 s; skips unless the OVN stack is up): the
 * guest's address on port 5900 until a TCP forward to that port exists, then the forward's listen
 * address and port.
 */
class DesktopOvnIT {
  private static OvnTestStack.Relayed stack;
  private static Server agent;
  private static String sb;

  @BeforeAll
  static void start() throws Exception {
    int first = ThreadLocalRandom.current().nextInt(0, 239);
    stack =
        OvnTestStack.Relayed.start(
            "deskovn",
            DesktopHarness.config()
                .withDefaultNetworkKind(NetworkKind.OVN)
                .withOvnUplink(OvnTestStack.UPLINK)
                .withOvnRanges("10.90.1." + first + "-10.90.1." + Math.min(first + 15, 254))
                .withBridgeSubnets(SubnetPool.parse("10.217.0.0/16", 24)));
    agent = OvnTestStack.codeMode(stack.runtime().capabilities());
    sb = IncusHarness.uniqueName("itdeskovn");
  }

  @AfterAll
  static void stop() throws Exception {
    if (stack == null) {
      return;
    }
    try {
      new ComputeCalls(stack.runtime()).deleteSandbox(sb);
    } catch (RuntimeException e) {
      // never created
    } finally {
      agent.close();
      stack.close();
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void theVncEndpointIsTheGuestAddressUntilAForwardToPort5900Exists() throws Exception {
    Map<String, Object> r =
        (Map<String, Object>)
            agent.execute(
                Context.background(),
                OvnTestStack.OPERATOR,
                """
                SB = "%s"

                def main():
                    sandbox.create(name=SB)
                    instance.create(sandbox=SB, name="desk", image="busybox-desktop")
                    instance.wait(sandbox=SB, name="desk", until="network", timeout_seconds=90)
                    before = desktop.info(sandbox=SB, instance="desk")
                    nic = instance.get(sandbox=SB, name="desk")["nics"][0]
                    f = net.forward(sandbox=SB, network="default", instance="desk", port=5900, listen_port=15900)
                    after = desktop.info(sandbox=SB, instance="desk")
                    return {"before": before["vnc"], "address": nic["addresses"][0],
                            "forward": f, "after": after["vnc"]}
                """
                    .formatted(sb));
    assertThat(r.get("before")).isEqualTo(r.get("address") + ":5900");
    Map<String, Object> forward = (Map<String, Object>) r.get("forward");
    assertThat(r.get("after")).isEqualTo(forward.get("address") + ":15900");
  }
}
