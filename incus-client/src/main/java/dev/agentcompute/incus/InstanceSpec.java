package dev.agentcompute.incus;

import java.util.List;
import java.util.Map;

/**
 * What to create ({@code POST /1.0/instances}). Null fields are left to the server. Use {@link
 * #container} for the common case and the {@code with*} methods to refine it.
 */
public record InstanceSpec(
    String name,
    String type,
    String description,
    Source source,
    List<String> profiles,
    Map<String, String> config,
    Map<String, Map<String, String>> devices,
    Boolean ephemeral,
    String architecture,
    Boolean start) {

  /** A container from {@code source}, with the default profile, not started. */
  public static InstanceSpec container(String name, Source source) {
    return new InstanceSpec(name, "container", null, source, null, null, null, null, null, null);
  }

  public InstanceSpec withProfiles(List<String> newProfiles) {
    return new InstanceSpec(
        name,
        type,
        description,
        source,
        newProfiles,
        config,
        devices,
        ephemeral,
        architecture,
        start);
  }

  public InstanceSpec withConfig(Map<String, String> newConfig) {
    return new InstanceSpec(
        name,
        type,
        description,
        source,
        profiles,
        newConfig,
        devices,
        ephemeral,
        architecture,
        start);
  }

  public InstanceSpec withDevices(Map<String, Map<String, String>> newDevices) {
    return new InstanceSpec(
        name,
        type,
        description,
        source,
        profiles,
        config,
        newDevices,
        ephemeral,
        architecture,
        start);
  }

  public InstanceSpec withType(String newType) {
    return new InstanceSpec(
        name,
        newType,
        description,
        source,
        profiles,
        config,
        devices,
        ephemeral,
        architecture,
        start);
  }

  /** Ask the server to start the instance as part of creation (one operation instead of two). */
  public InstanceSpec startingImmediately() {
    return new InstanceSpec(
        name, type, description, source, profiles, config, devices, ephemeral, architecture, true);
  }

  /**
   * Where an instance comes from: an image (local alias or fingerprint, or on another server), a
   * copy of an instance or snapshot ({@code "name"} or {@code "name/snapshot"}), or nothing.
   */
  public record Source(
      String type,
      String alias,
      String fingerprint,
      String server,
      String protocol,
      String certificate,
      String secret,
      String mode,
      String project,
      String source,
      Boolean instanceOnly) {

    public static Source imageAlias(String alias) {
      return new Source("image", alias, null, null, null, null, null, null, null, null, null);
    }

    public static Source imageFingerprint(String fingerprint) {
      return new Source("image", null, fingerprint, null, null, null, null, null, null, null, null);
    }

    /**
     * An image on another Incus server (or this one over HTTPS): pulled with an optional secret.
     */
    public static Source remoteImage(
        String server, String certificatePem, String alias, String fingerprint, String secret) {
      return new Source(
          "image",
          alias,
          fingerprint,
          server,
          "incus",
          certificatePem,
          secret,
          "pull",
          null,
          null,
          null);
    }

    /**
     * A copy of {@code instanceOrSnapshot} ({@code "c1"} or {@code "c1/snap0"}) in the same
     * project.
     */
    public static Source copy(String instanceOrSnapshot) {
      return new Source(
          "copy", null, null, null, null, null, null, null, null, instanceOrSnapshot, null);
    }

    public static Source none() {
      return new Source("none", null, null, null, null, null, null, null, null, null, null);
    }
  }
}
