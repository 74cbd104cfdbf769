package dev.agentcompute.capabilities.config;

/**
 * What one identity may hold across all of its live sandboxes together ({@code
 * sandbox.identity_limits.*}), so that one agent cannot take the host's instances, the subnet pool,
 * the forward range or the screenshot store from every other. An identity's sandboxes are the ones
 * it owns (the creator recorded on each sandbox); an instance another identity creates in it counts
 * against the owner.
 *
 * @param instances {@code sandbox.identity_limits.instances}: instances of every platform
 * @param networks {@code sandbox.identity_limits.networks}: networks made with {@code net.create}
 *     (each sandbox's default network is bounded by {@code sandbox.max_per_identity} instead)
 * @param forwards {@code sandbox.identity_limits.forwards}: forwarded ports of its OVN networks
 * @param screenshotBytes {@code sandbox.identity_limits.screenshot_mb}, in bytes: its share of the
 *     screenshot store
 */
public record IdentityLimits(int instances, int networks, int forwards, long screenshotBytes) {
  public static final long MIB = 1024L * 1024;

  public IdentityLimits {
    if (instances <= 0 || networks <= 0 || forwards <= 0 || screenshotBytes <= 0) {
      throw new IllegalArgumentException(
          "sandbox.identity_limits.* must all be positive, got instances="
              + instances
              + " networks="
              + networks
              + " forwards="
              + forwards
              + " screenshot bytes="
              + screenshotBytes);
    }
  }

  /**
   * 16 instances, 16 networks and 16 forwards per identity, and 32 MiB of the 128 MiB screenshot
   * store: four identities at their cap still leave the store whole.
   */
  public static IdentityLimits defaults() {
    return new IdentityLimits(16, 16, 16, 32 * MIB);
  }
}
