package dev.agentcompute.codemode.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * How the host waits for a worker's {@code ready} frame ({@link Worker#awaitReady}), against small
 * shell processes that stand in for a worker: one that says it is ready, one that never does.
 */
class WorkerReadyTest {

  /** The 28-byte ready frame behind its 4-byte big-endian length (034 octal = 28). */
  static final String WRITE_READY =
      "printf '\\000\\000\\000\\034{\"type\":\"ready\",\"version\":1}'";

  static Process shell(String script) throws IOException {
    return new ProcessBuilder("sh", "-c", script)
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
  }

  @Test
  void aWorkerThatIsNeverReadyIsKilledWhenTheWaitEnds() throws Exception {
    Worker w = new Worker(shell("exec sleep 60"));
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> w.awaitReady(Duration.ofMillis(300)))
        .isInstanceOf(IOException.class)
        .hasMessage("the worker was not ready within 300 ms and was killed");
    assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(5));
    assertThat(w.process.waitFor(5, TimeUnit.SECONDS)).as("killed").isTrue();
  }

  @Test
  void aWorkerThatEndsFirstIsReportedAsEndedNotAsLate() throws Exception {
    Worker w = new Worker(shell("exit 0"));
    assertThatThrownBy(() -> w.awaitReady(Duration.ofSeconds(30)))
        .isInstanceOf(IOException.class)
        .hasMessage("the worker ended before it was ready");
  }

  /**
   * Once the frame is read the wait's timer lets go of the worker: a retired or discarded worker
   * must not stay reachable (process handle, pipes, 64 KiB buffers each way) for the rest of a 30 s
   * wait, which with reuse and ~10 retirements a second would be hundreds of dead workers. With a
   * timer that cannot be cancelled the weak reference below is never cleared.
   */
  @Test
  void aReadyWorkerIsNotKeptReachableByItsWaitsTimer() throws Exception {
    Process p = shell(WRITE_READY + "; exec sleep 60");
    try {
      WeakReference<Worker> ref = readyWorker(p);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (ref.get() != null && System.nanoTime() < deadline) {
        System.gc();
        Thread.sleep(50);
      }
      assertThat(ref.get())
          .as("the worker after its ready frame, with only the wait's timer left to hold it")
          .isNull();
      assertThat(p.isAlive()).as("a ready worker is not killed by the timer").isTrue();
    } finally {
      p.destroyForcibly();
    }
  }

  private static WeakReference<Worker> readyWorker(Process p) throws IOException {
    Worker w = new Worker(p);
    w.awaitReady(Duration.ofSeconds(60));
    assertThat(w.ready).isTrue();
    return new WeakReference<>(w);
  }
}
