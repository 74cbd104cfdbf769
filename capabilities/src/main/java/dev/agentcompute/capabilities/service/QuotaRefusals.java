package dev.agentcompute.capabilities.service;

import java.util.function.Consumer;

/**
 * Hears every quota refusal by the configuration key of the limit that held ({@code
 * sandbox.limits.cpus}, {@code instance.max_memory_mb}, …), once per refusal, for the host's
 * metrics. Process-wide, like the host's meter registry: the host sets it once at startup.
 */
public final class QuotaRefusals {
  private static volatile Consumer<String> listener = key -> {};

  private QuotaRefusals() {}

  /** Sends every later refusal's key to {@code keys} (replacing any earlier listener). */
  public static void listen(Consumer<String> keys) {
    listener = keys == null ? key -> {} : keys;
  }

  static void refused(String key) {
    try {
      listener.accept(key);
    } catch (RuntimeException e) {
      // Counting must never change the refusal.
    }
  }
}
