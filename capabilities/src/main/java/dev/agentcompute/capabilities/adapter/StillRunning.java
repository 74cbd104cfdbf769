package dev.agentcompute.capabilities.adapter;

import dev.agentcompute.codemode.CapabilityCall;
import java.time.Duration;
import java.util.Set;

/**
 * Says every ten seconds that a long command is still running, so a client waiting on a 10-minute
 * exec sees a sign of life (as MCP progress) instead of silence.
 */
final class StillRunning {
  static final Duration EVERY = Duration.ofSeconds(10);
  private static final Set<String> LONG_RUNNING = Set.of("instance.exec", "desktop.call");

  private StillRunning() {}

  /** A ticker thread for {@code capability}, or null for calls that are not long-running. */
  static Thread start(CapabilityCall call, String capability) {
    if (!LONG_RUNNING.contains(capability) || call == CapabilityCall.NONE) {
      return null;
    }
    long started = System.nanoTime();
    return Thread.ofVirtual()
        .name("still-running-" + capability)
        .start(
            () -> {
              try {
                while (true) {
                  Thread.sleep(EVERY);
                  long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
                  call.progress("still running, " + seconds + " s");
                }
              } catch (InterruptedException e) {
                // The call finished.
              }
            });
  }
}
