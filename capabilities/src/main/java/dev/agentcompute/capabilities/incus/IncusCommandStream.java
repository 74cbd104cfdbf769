package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.Cancellation;
import dev.agentcompute.capabilities.model.CommandStream;
import dev.agentcompute.incus.ExecStream;
import dev.agentcompute.incus.IncusException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.OptionalInt;

/**
 * incus-client's attached exec seen as the platform's {@link CommandStream}. The returned object
 * outlives the port call that made it, so the port's translation does not cover it: its one Incus
 * call ({@link #exitCode}) translates here.
 */
final class IncusCommandStream implements CommandStream {
  private final ExecStream exec;

  IncusCommandStream(ExecStream exec) {
    this.exec = exec;
  }

  @Override
  public OutputStream stdin() {
    return exec.stdin();
  }

  @Override
  public InputStream stdout() {
    return exec.stdout();
  }

  @Override
  public String stderr() {
    return new String(exec.stderr(), StandardCharsets.UTF_8);
  }

  @Override
  public OptionalInt exitCode(Duration wait) {
    try {
      return OptionalInt.of(exec.awaitExit(wait));
    } catch (IncusException.Cancelled e) {
      throw Cancellation.canceled(e);
    } catch (IncusException e) {
      // Still running (timed out), or the operation is gone: no exit code to report.
      return OptionalInt.empty();
    }
  }

  @Override
  public void close() {
    exec.close();
  }
}
