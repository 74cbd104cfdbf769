package dev.agentcompute.capabilities.model;

import java.time.Duration;

/**
 * The exact agent-facing error texts of docs/reference/capabilities.md, in one place so every
 * caller words them alike.
 */
public final class Errors {
  private Errors() {}

  public static AgentFacingException of(String format, Object... args) {
    return new AgentFacingException(String.format(format, args));
  }

  /**
   * An OVN network with NAT, or an OVN sandbox, on a server whose site has no uplink configured
   * (the uplink is a site's own network, so it has no default).
   */
  public static AgentFacingException noOvnUplink() {
    return of(
        "OVN networks with nat need the site's uplink network, and this server has none"
            + " (incus.ovn_uplink): create the network with nat=false, or ask the operator to"
            + " configure it");
  }

  /** net.forward on a server whose site has no range of forward addresses configured. */
  public static AgentFacingException noOvnRanges() {
    return of(
        "net.forward needs the site's forward addresses, and this server has none"
            + " (incus.ovn_ranges): ask the operator to configure them");
  }

  public static AgentFacingException invalidName(String name) {
    return of("invalid name \"%s\"", name);
  }

  public static AgentFacingException reservedName(String name) {
    return of("name \"%s\" is reserved", name);
  }

  public static AgentFacingException sandboxNotFound(String sandbox) {
    return of("sandbox \"%s\" not found", sandbox);
  }

  public static AgentFacingException sandboxExists(String sandbox) {
    return of("sandbox \"%s\" already exists", sandbox);
  }

  /** A name whose old sandbox is deleted but not gone yet: free again in a few seconds. */
  public static AgentFacingException sandboxStillDeleting(String sandbox) {
    return of(
        "sandbox \"%s\" is still being deleted and its name is not free yet; use another name, or"
            + " try again in a few seconds",
        sandbox);
  }

  public static AgentFacingException sandboxExpired(String sandbox) {
    return of("sandbox \"%s\" has expired", sandbox);
  }

  public static AgentFacingException pinningRequiresOperator() {
    return of("pinning requires an operator identity");
  }

  public static AgentFacingException ttlExceedsMaximum(Duration max) {
    return of("ttl exceeds maximum of %d minutes", max.toMinutes());
  }

  public static AgentFacingException instanceNotFound(String instance, String sandbox) {
    return of("instance \"%s\" not found in sandbox \"%s\"", instance, sandbox);
  }

  public static AgentFacingException instanceExists(String instance, String sandbox) {
    return of("instance \"%s\" already exists in sandbox \"%s\"", instance, sandbox);
  }

  public static AgentFacingException instanceNotRunning(String instance, String sandbox) {
    return of("instance \"%s\" in sandbox \"%s\" is not running", instance, sandbox);
  }

  public static AgentFacingException imageNotFound(String image) {
    return of("image \"%s\" not found", image);
  }

  public static AgentFacingException networkNotFound(String network, String sandbox) {
    return of("network \"%s\" not found in sandbox \"%s\"", network, sandbox);
  }

  public static AgentFacingException nicNotFound(String nic, String instance, String sandbox) {
    return of("nic \"%s\" not found on instance \"%s\" in sandbox \"%s\"", nic, instance, sandbox);
  }

  public static AgentFacingException snapshotNotFound(
      String snapshot, String instance, String sandbox) {
    return of(
        "snapshot \"%s\" not found on instance \"%s\" in sandbox \"%s\"",
        snapshot, instance, sandbox);
  }

  /** A capability the sandbox's platform does not offer ({@code unsupported on platform mac}). */
  public static AgentFacingException unsupportedOn(String platform) {
    return of("unsupported on platform %s", platform);
  }
}
