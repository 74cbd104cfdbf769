package dev.agentcompute.codemode;

import java.util.concurrent.TimeUnit;

/**
 * Waits until a server's spare workers are all started, so a test that counts worker starts reads a
 * settled count (a taken spare is replaced in the background).
 */
final class Spares {

  private Spares() {}

  static void awaitFull(Server s, int spares) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (s.spareWorkers() < spares) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "spares not started within 30 s: " + s.spareWorkers() + " of " + spares);
      }
      Thread.sleep(10);
    }
  }
}
