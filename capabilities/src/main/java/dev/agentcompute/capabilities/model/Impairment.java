package dev.agentcompute.capabilities.model;

import java.math.BigDecimal;

/**
 * A Linux {@code tc netem} impairment (docs/reference/capabilities.md#netimpair): validation in the
 * original's order and the shell script that applies or clears it inside the guest.
 */
public record Impairment(long latencyMs, long jitterMs, double lossPercent, long rateMbit) {

  /** Validates values for a set (not a clear). */
  public static Impairment of(long latencyMs, long jitterMs, double lossPercent, long rateMbit) {
    if (latencyMs < 0 || jitterMs < 0 || lossPercent < 0 || rateMbit < 0) {
      throw Errors.of("impairment values must be non-negative");
    }
    if (Double.isNaN(lossPercent) || lossPercent > 100) {
      throw Errors.of("loss_percent must be between 0 and 100");
    }
    if (jitterMs > 0 && latencyMs == 0) {
      throw Errors.of("jitter_ms requires latency_ms");
    }
    if (latencyMs == 0 && jitterMs == 0 && lossPercent == 0 && rateMbit == 0) {
      throw Errors.of("no impairment specified");
    }
    return new Impairment(latencyMs, jitterMs, lossPercent, rateMbit);
  }

  /** The netem arguments: {@code delay L ms[ J ms] loss P% rate R mbit} in that order. */
  public String netemArguments() {
    StringBuilder args = new StringBuilder();
    if (latencyMs > 0) {
      args.append("delay ").append(latencyMs).append("ms");
      if (jitterMs > 0) {
        args.append(' ').append(jitterMs).append("ms");
      }
    }
    if (lossPercent > 0) {
      append(
          args,
          "loss "
              + new BigDecimal(Double.toString(lossPercent)).stripTrailingZeros().toPlainString()
              + "%");
    }
    if (rateMbit > 0) {
      append(args, "rate " + rateMbit + "mbit");
    }
    return args.toString();
  }

  private static void append(StringBuilder args, String part) {
    if (!args.isEmpty()) {
      args.append(' ');
    }
    args.append(part);
  }

  /** Script that replaces the root qdisc of {@code iface} with this netem. */
  public String applyScript(String iface) {
    return "tc qdisc replace dev " + iface + " root handle 1: netem " + netemArguments();
  }

  /** Idempotent clear: deletes the root qdisc only when it is our netem. */
  public static String clearScript(String iface) {
    return "qdisc=$(tc qdisc show dev "
        + iface
        + ") || exit $?\n"
        + "case \"$qdisc\" in *\"qdisc netem 1: root\"*) tc qdisc del dev "
        + iface
        + " root ;; esac";
  }
}
