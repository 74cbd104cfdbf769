package dev.agentcompute.server.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import sun.misc.Signal;

/**
 * Turns SIGTERM/SIGINT (and, for stdio, the client closing stdin) into a clean, status-0 shutdown
 * driven by the main thread, instead of the JVM's exit status 143 from hooks.
 */
public final class ShutdownSignal {
  private final CountDownLatch latch = new CountDownLatch(1);
  private final AtomicReference<String> reason = new AtomicReference<>();

  public static ShutdownSignal install() {
    ShutdownSignal signal = new ShutdownSignal();
    for (String name : new String[] {"TERM", "INT"}) {
      Signal.handle(new Signal(name), s -> signal.trigger("SIG" + s.getName()));
    }
    return signal;
  }

  public void trigger(String why) {
    reason.compareAndSet(null, why);
    latch.countDown();
  }

  /** Blocks until a signal arrives; returns what triggered it. */
  public String await() throws InterruptedException {
    latch.await();
    return reason.get();
  }
}
