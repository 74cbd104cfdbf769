package dev.agentcompute.capabilities.mac;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/reference/exec-path.md: one instance.exec on a Mac sandbox reads its sidecar once (it was
 * read three times: by the sandbox lookup, the instance lookup and the guest connection), counted
 * from the commands the Mac host double ran.
 */
class MacExecReadsTest {
  @TempDir static Path dir;
  private static MacStack stack;

  @BeforeAll
  static void start() throws Exception {
    stack = new MacStack(dir);
    stack.createSandboxWithGuest("reads", "web");
  }

  @AfterAll
  static void stop() throws Exception {
    stack.close();
  }

  @Test
  @SuppressWarnings("unchecked")
  void oneExecReadsTheSidecarOnce() throws Exception {
    int before = stack.mac.commands.size();
    Map<String, Object> out =
        (Map<String, Object>)
            stack.eval("instance.exec(sandbox=\"reads\", name=\"web\", command=\"echo hi\")");
    List<String> ran = List.copyOf(stack.mac.commands.subList(before, stack.mac.commands.size()));
    assertThat(out).containsEntry("stdout", "hi\n");
    assertThat(ran.stream().filter(c -> c.contains(Sidecars.DIR) && c.contains("==>")))
        .as("sidecar reads among the host commands %s", ran)
        .hasSize(1);
  }
}
