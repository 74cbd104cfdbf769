package dev.agentcompute.capabilities.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.adapter.instance.InstanceCapabilities;
import dev.agentcompute.capabilities.model.ExecResult;
import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.incus.IncusClient;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * docs/reference/exec-path.md: one instance.exec reads its sandbox's project once, on a bridge
 * sandbox (whose instance NICs are named through the project's reservations) and on an OVN one,
 * counted by a request observer on the real incusd client.
 */
class ExecReadsIT {
  private final List<String> requests = new CopyOnWriteArrayList<>();
  @RegisterExtension final RuntimeFixture it = RuntimeFixture.perTest();

  private void start(IncusClient.Builder client, NetworkKind kind) {
    IncusClient incus =
        client.onCall((method, path, status, nanos) -> requests.add(method + " " + path)).build();
    var config = IncusHarness.config().withDefaultNetworkKind(kind);
    if (kind == NetworkKind.OVN) {
      config = config.withOvnUplink(OvnTestStack.UPLINK);
    }
    it.start(config, incus);
  }

  private <O> O call(String name, Record input) {
    return it.call(name, input);
  }

  /** A sandbox with one running busybox instance {@code c1}. */
  private String sandboxWithInstance(String prefix) {
    String name = it.sandbox(prefix, OptionalLong.of(30));
    call("instance.create", InstanceCapabilities.CreateInput.of(name, "c1", "busybox"));
    return name;
  }

  /** The requests of one instance.exec, after checking its result. */
  private List<String> requestsOfOneExec(String sandbox) {
    requests.clear();
    ExecResult result =
        call(
            "instance.exec",
            new InstanceCapabilities.ExecInput(
                sandbox,
                "c1",
                "echo hi",
                OptionalLong.of(30),
                Optional.empty(),
                Optional.of("/tmp"),
                Optional.empty(),
                Optional.empty()));
    List<String> made = List.copyOf(requests);
    assertThat(result.stdout()).isEqualTo("hi\n");
    System.out.println("exec-path figures: one instance.exec made " + made);
    return made;
  }

  private static long projectReads(List<String> requests, String sandbox) {
    return requests.stream()
        .filter(r -> r.matches("GET /1\\.0/projects/ac-" + sandbox + "(\\?.*)?"))
        .count();
  }

  @Test
  void oneExecOnABridgeSandboxReadsItsProjectOnce() {
    start(IncusClient.unixSocket(IncusHarness.socket()), NetworkKind.BRIDGE);
    String sandbox = sandboxWithInstance("itexr");
    List<String> made = requestsOfOneExec(sandbox);
    assertThat(projectReads(made, sandbox)).as("project reads in %s", made).isEqualTo(1);
  }

  @Test
  void oneExecOnAnOvnSandboxReadsItsProjectOnce() {
    OvnTestStack.incusOrAbort().close();
    start(IncusClient.unixSocket(IncusHarness.socket()), NetworkKind.OVN);
    String sandbox = sandboxWithInstance("itexo");
    List<String> made = requestsOfOneExec(sandbox);
    assertThat(projectReads(made, sandbox)).as("project reads in %s", made).isEqualTo(1);
  }
}
