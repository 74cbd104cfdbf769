package dev.agentcompute.capabilities;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host part of this server's name in the reaper lease when the host's own name does not resolve
 * (the test cluster's members): the kernel's host name, not {@code unknown}.
 */
class ReaperHolderNameTest {
  @TempDir Path dir;

  @Test
  void theKernelsHostNameIsRead() throws Exception {
    Path file = Files.writeString(dir.resolve("hostname"), "accl-m1\n");
    assertThat(ComputeRuntime.kernelHostName(file)).isEqualTo("accl-m1");
  }

  @Test
  void anUnreadableOrEmptyNameIsUnknown() throws Exception {
    assertThat(ComputeRuntime.kernelHostName(dir.resolve("missing"))).isEqualTo("unknown");
    Path empty = Files.writeString(dir.resolve("empty"), "\n");
    assertThat(ComputeRuntime.kernelHostName(empty)).isEqualTo("unknown");
  }
}
