package dev.agentcompute.capabilities.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.adapter.instance.InstanceCapabilities;
import dev.agentcompute.capabilities.model.ExecRequest;
import dev.agentcompute.capabilities.model.ExecResult;
import dev.agentcompute.capabilities.model.Progress;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * docs/capabilities.md#output-as-it-comes: only a foreground instance.exec reports its output lines
 * as progress; the server's own execs (desktop, net.impair, Windows guest steps), run inside some
 * other capability's call, report none, however long they run.
 */
class ExecProgressIT {
  /** Six lines a second apart: past ExecProgress's quiet 3 s, so a reporting exec reports. */
  private static final String SLOW = "for i in 1 2 3 4 5 6; do echo line$i; sleep 1; done";

  @RegisterExtension static final RuntimeFixture IT = RuntimeFixture.perClass();
  private static String sandbox;

  @BeforeAll
  static void start() {
    IT.start(IncusHarness.config());
    sandbox = IT.sandbox("itexp", OptionalLong.of(30));
    call("instance.create", InstanceCapabilities.CreateInput.of(sandbox, "c1", "busybox"));
  }

  private static <O> O call(String name, Record input) {
    return IT.call(name, input);
  }

  @Test
  void aForegroundInstanceExecReportsItsOutputLines() {
    List<String> reports = new CopyOnWriteArrayList<>();
    ExecResult result =
        Progress.reportingTo(
            reports::add,
            () ->
                call(
                    "instance.exec",
                    new InstanceCapabilities.ExecInput(
                        sandbox,
                        "c1",
                        SLOW,
                        OptionalLong.of(60),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty())));
    assertThat(result.exit_code()).isZero();
    assertThat(String.join("\n", reports)).contains("line4");
  }

  @Test
  void anInternalExecInsideACallReportsNothing() {
    List<String> reports = new CopyOnWriteArrayList<>();
    // What the desktop Driver, net.impair and the Windows guest steps build: a request of their own
    // passed to the instance service (and so to the platform driver) inside some capability's call.
    ExecResult result =
        Progress.reportingTo(
            reports::add,
            () -> IT.runtime().compute().instances().exec(sandbox, "c1", ExecRequest.shell(SLOW)));
    assertThat(result.exit_code()).isZero();
    assertThat(result.stdout()).contains("line6");
    assertThat(reports).as("progress reported by an internal exec").isEmpty();
  }
}
