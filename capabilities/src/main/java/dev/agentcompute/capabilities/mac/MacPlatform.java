package dev.agentcompute.capabilities.mac;

import dev.agentcompute.capabilities.platform.Platform;
import dev.agentcompute.capabilities.platform.PlatformFeature;
import dev.agentcompute.lume.LumeException;
import dev.agentcompute.lume.MacHost;
import java.util.Optional;
import java.util.Set;

/**
 * The Mac platform: sandboxes are sidecars on one Mac host, instances are Lume VMs cloned from
 * seeds, reached over one SSH connection. It has no images, networks or OVN: those capabilities
 * answer {@code unsupported on platform mac} (the router's empty ports).
 */
public final class MacPlatform implements AutoCloseable {
  /** The platform name Mac sandboxes report. */
  public static final String NAME = "mac";

  private final MacHost host;
  private final Platform platform;

  private MacPlatform(MacHost host, MacConfig config) {
    this.host = host;
    Sidecars sidecars = new Sidecars(host);
    MacVms vms = new MacVms(host, config);
    MacInstanceDriver instances = new MacInstanceDriver(host, sidecars, vms, config);
    this.platform =
        new Platform(
            NAME,
            this::ready,
            new MacSandboxStore(sidecars, vms, host.config().hostName()),
            instances,
            new MacSnapshotDriver(instances, vms),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            // Background processes need a Linux container's supervisor (ProcessDriver).
            Optional.empty(),
            // Exec runs as the guest's login user lume by default.
            Set.of(PlatformFeature.GUEST_LOGIN_USER));
  }

  /** The platform over {@code host}; closes it. Nothing is dialled until first use. */
  public static MacPlatform over(MacHost host, MacConfig config) {
    return new MacPlatform(host, config);
  }

  /**
   * Startup check: the host answers, its lume binary offers {@code --vnc}, and its Lume daemon
   * refuses a display with VNC disabled (a stock Lume would give every guest a VNC listener).
   *
   * @throws IllegalStateException naming what is wrong
   */
  public void checkVncPolicy() {
    try {
      host.checkLumeBinary();
      host.api().probeVncPolicy();
    } catch (LumeException e) {
      throw new IllegalStateException(e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while probing lume", e);
    }
  }

  public Platform platform() {
    return platform;
  }

  /** The host is reachable over SSH with our key and its host key. */
  public boolean ready() {
    try {
      host.checkReachable();
      return true;
    } catch (LumeException e) {
      return false;
    }
  }

  @Override
  public void close() {
    host.close();
  }
}
