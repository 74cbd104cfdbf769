package dev.agentcompute.capabilities.model;

import java.util.List;
import java.util.Map;

/**
 * An instance as its backend reports it.
 *
 * @param addresses NIC name to observed global addresses (never null, lists never null)
 * @param location cluster member it runs on
 * @param os guest OS from {@code image.os}, empty when unknown
 * @param vncUrl the VNC endpoint the platform reports (Lume's {@code vncUrl} while running), empty
 *     when it reports none
 */
public record SandboxInstance(
    String name,
    String kind,
    String image,
    String status,
    int cpus,
    int memoryMb,
    List<Nic> nics,
    boolean desktop,
    List<String> snapshots,
    Map<String, List<String>> addresses,
    String location,
    String os,
    String vncUrl) {

  public SandboxInstance {
    nics = List.copyOf(nics);
    snapshots = List.copyOf(snapshots);
    addresses = Map.copyOf(addresses);
  }

  /** Running or Ready: what exec, files and waits accept as up. */
  public boolean isRunning() {
    return status.equals("Running") || status.equals("Ready");
  }

  /** One network interface: logical network name, MAC, observed addresses. */
  public record Nic(String name, String network, String mac, List<String> addresses) {
    public Nic {
      addresses = List.copyOf(addresses);
    }
  }
}
