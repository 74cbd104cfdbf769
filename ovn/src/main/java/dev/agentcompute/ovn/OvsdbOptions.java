package dev.agentcompute.ovn;

import java.time.Duration;
import java.util.Objects;

/**
 * Client timing. {@code probeInterval}: after this long without anything received, the client sends
 * an {@code echo} and drops the connection if no answer comes within another interval. Reconnects
 * back off exponentially from {@code reconnectMin} to {@code reconnectMax}.
 */
public record OvsdbOptions(
    Duration connectTimeout,
    Duration requestTimeout,
    Duration probeInterval,
    Duration reconnectMin,
    Duration reconnectMax) {
  public OvsdbOptions {
    for (Duration d :
        new Duration[] {
          connectTimeout, requestTimeout, probeInterval, reconnectMin, reconnectMax
        }) {
      Objects.requireNonNull(d, "durations must not be null");
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("durations must be positive, got " + d);
      }
    }
    if (reconnectMax.compareTo(reconnectMin) < 0) {
      throw new IllegalArgumentException(
          "reconnectMax " + reconnectMax + " is below reconnectMin " + reconnectMin);
    }
  }

  public static OvsdbOptions defaults() {
    return new OvsdbOptions(
        Duration.ofSeconds(5),
        Duration.ofSeconds(10),
        Duration.ofSeconds(5),
        Duration.ofMillis(100),
        Duration.ofSeconds(8));
  }

  public OvsdbOptions withRequestTimeout(Duration timeout) {
    return new OvsdbOptions(connectTimeout, timeout, probeInterval, reconnectMin, reconnectMax);
  }

  public OvsdbOptions withProbeInterval(Duration interval) {
    return new OvsdbOptions(connectTimeout, requestTimeout, interval, reconnectMin, reconnectMax);
  }

  public OvsdbOptions withReconnect(Duration min, Duration max) {
    return new OvsdbOptions(connectTimeout, requestTimeout, probeInterval, min, max);
  }
}
