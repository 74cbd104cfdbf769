package dev.agentcompute.lume;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.Optional;

/**
 * One VM as {@code GET /lume/vms/{name}} describes it.
 *
 * @param memorySize bytes
 * @param vncUrl present only while a VNC listener runs
 * @param ipAddress present once the guest has an address
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record LumeVm(
    String name,
    String os,
    int cpuCount,
    long memorySize,
    DiskSize diskSize,
    String status,
    String vncUrl,
    String ipAddress) {

  /** Disk usage in bytes. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record DiskSize(long allocated, long total) {}

  public boolean running() {
    return "running".equals(status);
  }

  public boolean stopped() {
    return "stopped".equals(status);
  }

  public Optional<String> ip() {
    return Optional.ofNullable(ipAddress).filter(s -> !s.isEmpty());
  }

  public Optional<String> vnc() {
    return Optional.ofNullable(vncUrl).filter(s -> !s.isEmpty());
  }
}
