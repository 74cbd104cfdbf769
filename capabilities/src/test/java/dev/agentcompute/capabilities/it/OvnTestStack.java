package dev.agentcompute.capabilities.it;

import dev.agentcompute.capabilities.CapabilityDefinition;
import dev.agentcompute.capabilities.CodeModeRegistration;
import dev.agentcompute.codemode.CodeMode;
import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Limits;
import dev.agentcompute.codemode.Options;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/** What the OVN integration tests share: the stack check, the northbound endpoint, the agent's view. */
final class OvnTestStack {
  static final String UPLINK = "ovn-uplink";
  static final Subject OPERATOR = new Subject("operator");

  private OvnTestStack() {}

  /** A client of the shared incusd; aborts the test class when the OVN stack is not up. */
  static IncusClient incusOrAbort() {
    IncusClient incus = IncusClient.unixSocket(IncusHarness.socket()).operationTimeout(Duration.ofMinutes(5)).build();
    boolean uplink;
    try {
      uplink = "physical".equals(incus.networks().get(UPLINK).type());
    } catch (IncusException e) {
      uplink = false;
    }
    if (!uplink) {
      incus.close();
      Assumptions.abort("the OVN stack is not up (no Incus network " + UPLINK + "): run dev/ovn-stack up");
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

  /** The CodeMode engine over these capabilities, as an agent meets them. */
  static Server codeMode(List<CapabilityDefinition<?, ?>> capabilities) throws CodeModeException {
    return CodeModeRegistration.register(CodeMode.builder(Options.builder()
                .authorizer((ctx, request) -> {})
                .limits(Limits.unset().with("MaxExecutionTime", "5m").with("MaxNativeCalls", "100"))
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
