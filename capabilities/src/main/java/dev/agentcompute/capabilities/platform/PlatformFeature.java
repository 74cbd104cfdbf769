package dev.agentcompute.capabilities.platform;

/**
 * What a platform declares it does, asked by the services through {@link PlatformRouter#supports}
 * instead of comparing platform names (in the way of Nomad's {@code drivers.Capabilities}). A test
 * keeps platform names out of the service and platform code.
 */
public enum PlatformFeature {
  /**
   * Each sandbox is a project whose limits cap every container's processes, so a container must be
   * created within them (docs/reference/capabilities.md#instancecreate).
   */
  PROJECT_PROCESS_LIMITS,

  /**
   * A new instance is listed only a moment after its creation was accepted (Incus records it inside
   * its create operation), so the per-identity reservation waits until it is listed.
   */
  LISTED_AFTER_ACCEPT,

  /**
   * Guests have a login user of their own ({@code lume} on macOS) that exec runs as by default, and
   * that instance.exec's {@code user} may name (docs/reference/capabilities.md#macos-guests).
   */
  GUEST_LOGIN_USER
}
