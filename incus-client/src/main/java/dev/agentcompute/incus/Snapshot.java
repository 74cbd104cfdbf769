package dev.agentcompute.incus;

import java.time.Instant;
import java.util.Map;

/** An instance snapshot; {@code name} is the short snapshot name (without {@code instance/}). */
public record Snapshot(
    String name,
    String description,
    boolean stateful,
    Instant createdAt,
    Instant expiresAt,
    String architecture,
    Map<String, String> config,
    Map<String, Map<String, String>> devices,
    long size) {

  public Snapshot {
    config = config == null ? Map.of() : config;
    devices = devices == null ? Map.of() : devices;
  }
}
