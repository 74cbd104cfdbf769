package dev.agentcompute.incus;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** An image in a project's image store. */
public record Image(
    String fingerprint,
    String filename,
    long size,
    String architecture,
    String type,
    @com.fasterxml.jackson.annotation.JsonProperty("public") boolean isPublic,
    boolean cached,
    boolean autoUpdate,
    Map<String, String> properties,
    List<Alias> aliases,
    List<String> profiles,
    String project,
    Instant createdAt,
    Instant uploadedAt) {

  public Image {
    properties = properties == null ? Map.of() : properties;
    aliases = aliases == null ? List.of() : aliases;
    profiles = profiles == null ? List.of() : profiles;
  }

  /** An alias as listed on the image itself. */
  public record Alias(String name, String description) {}
}
