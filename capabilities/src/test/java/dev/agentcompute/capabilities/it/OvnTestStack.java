package dev.agentcompute.capabilities.it;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.adapter.CodeModeRegistration;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.codemode.CodeMode;
import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Limits;
import dev.agentcompute.codemode.Options;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.ovn.OvnNorthbound;
import dev.agentcompute.ovn.OvsdbEndpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * What the OVN integration tests share: the stack check, the northbound endpoint, the agent's view.
 */
final class OvnTestStack {
  static final String UPLINK = "ovn-uplink";
  static final Subject OPERATOR = new Subject("operator");

  private OvnTestStack() {}

  /** A client of the shared incusd; aborts the test class when the OVN stack is not up. */
  static IncusClient incusOrAbort() {
    IncusClient incus =
        IncusClient.unixSocket(IncusHarness.socket())
            .operationTimeout(Duration.ofMinutes(5))
            .build();
    boolean uplink;
    try {
      uplink = "physical".equals(incus.networks().get(UPLINK).type());
    } catch (IncusException e) {
      uplink = false;
    }
    if (!uplink) {
      incus.close();
      Assumptions.abort(
          "the OVN stack is not up (no Incus network " + UPLINK + "): run dev/ovn-stack up");
    }
    return incus;
  }

  static String nbEndpoint() {
    String env = System.getenv("AGENTCOMPUTE_OVN_NB_UNIX");
    if (env != null && !env.isEmpty()) {
      return env.startsWith("unix:") ? env : "unix:" + env;
    }
    return "unix:" + IncusHarness.root().resolve(".state/ovn/ovnnb_db.sock");
  }

  /**
   * A compute runtime whose backend reaches incusd only through an {@link OvnFaultRelay}, beside a
   * direct client ({@code incus}) for the test's own checks, and the northbound connection.
   */
  record Relayed(
      IncusClient incus,
      OvnNorthbound northbound,
      Path relayDir,
      OvnFaultRelay relay,
      IncusClient relayed,
      ComputeRuntime runtime)
      implements AutoCloseable {

    static Relayed start(String tempPrefix, ComputeConfig config) throws Exception {
      IncusClient incus = incusOrAbort();
      OvnNorthbound northbound = OvnNorthbound.connect(OvsdbEndpoint.parse(nbEndpoint()));
      Path relayDir = Files.createTempDirectory(tempPrefix);
      OvnFaultRelay relay = OvnFaultRelay.start(IncusHarness.socket(), relayDir);
      IncusClient relayed =
          IncusClient.unixSocket(relay.socket()).operationTimeout(Duration.ofMinutes(5)).build();
      return new Relayed(
          incus,
          northbound,
          relayDir,
          relay,
          relayed,
          ComputeRuntime.startIncus(config, relayed, northbound));
    }

    @Override
    public void close() throws Exception {
      runtime.close();
      relayed.close();
      relay.close();
      Files.deleteIfExists(relayDir);
      northbound.close();
      incus.close();
    }
  }

  /** The CodeMode engine over these capabilities, as an agent meets them. */
  static Server codeMode(List<CapabilityDefinition<?, ?>> capabilities) throws CodeModeException {
    return CodeModeRegistration.register(
            CodeMode.builder(
                Options.builder()
                    .authorizer((ctx, request) -> {})
                    .limits(
                        Limits.unset().with("MaxExecutionTime", "5m").with("MaxNativeCalls", "100"))
                    .build()),
            capabilities)
        .build();
  }

  /** The text the agent reads when {@code program} fails. */
  static String agentSees(Server server, String program) {
    try {
      server.execute(Context.background(), OPERATOR, program);
    } catch (CodeModeException e) {
      return e.clientText();
    }
    throw new AssertionError("program succeeded: " + program);
  }
}
