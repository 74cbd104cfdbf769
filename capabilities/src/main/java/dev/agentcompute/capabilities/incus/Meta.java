package dev.agentcompute.capabilities.incus;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code user.agentcompute.*} keys the Incus backend stores its state in
 * (docs/reference/capabilities.md#incus-state).
 */
final class Meta {
  static final String PREFIX = "user.agentcompute.";
  static final String VERSION = PREFIX + "version";
  static final String CREATED_AT = PREFIX + "created_at";
  static final String EXPIRES_AT = PREFIX + "expires_at";
  static final String SUBJECT = PREFIX + "subject";
  static final String HOST = PREFIX + "host";
  static final String NETWORK_PREFIX = PREFIX + "network.";
  static final String PINNED = PREFIX + "pinned";
  static final String PINNED_BY = PREFIX + "pinned_by";
  static final String PINNED_AT = PREFIX + "pinned_at";
  static final String SANDBOX = PREFIX + "sandbox";
  static final String NAME = PREFIX + "name";
  static final String IMAGE = PREFIX + "image";
  static final String DESKTOP = PREFIX + "desktop";
  static final String PUBLISHED = PREFIX + "published";

  /** Set on a sandbox whose deletion has begun: agents no longer see it, the rest follows. */
  static final String DELETING = PREFIX + "deleting";

  /** A warm pool member's preparation time and the configuration it was prepared for. */
  static final String POOL_PREPARED_AT = PREFIX + "pool.prepared_at";

  static final String POOL_SPEC = PREFIX + "pool.spec";

  /**
   * Written on a warm pool member once its bridge exists: only then may a claim take it. Its
   * project is listed from its creation on, a second or more before its bridge is made.
   */
  static final String POOL_READY_AT = PREFIX + "pool.ready_at";

  /** Written by the claim that reserved a pool member, before its rename. */
  static final String POOL_CLAIMED_AT = PREFIX + "pool.claimed_at";

  static final String PROJECT_PREFIX = "ac-";
  static final String POOL_PREFIX = "acpool-";

  private Meta() {}

  static String project(String sandbox) {
    return PROJECT_PREFIX + sandbox;
  }

  /** Ownership tags of networks and images that belong to {@code sandbox}. */
  static Map<String, String> tags(String sandbox, String logicalName) {
    Map<String, String> tags = new LinkedHashMap<>();
    tags.put(SANDBOX, sandbox);
    tags.put(NAME, logicalName);
    tags.put(VERSION, "1");
    return tags;
  }

  /**
   * The restricted-project keys shared by both fabrics
   * (docs/reference/capabilities.md#incus-state), exactly.
   */
  static Map<String, String> restrictedProject() {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("features.images", "true");
    config.put("features.profiles", "true");
    config.put("restricted", "true");
    config.put("restricted.containers.nesting", "block");
    config.put("restricted.containers.privilege", "unprivileged");
    config.put("restricted.containers.lowlevel", "block");
    config.put("restricted.cluster.target", "allow");
    config.put("restricted.snapshots", "allow");
    config.put("restricted.devices.nic", "managed");
    config.put("restricted.devices.disk", "managed");
    config.put("restricted.devices.gpu", "block");
    config.put("restricted.devices.pci", "block");
    config.put("restricted.devices.proxy", "block");
    config.put("restricted.devices.usb", "block");
    config.put("restricted.devices.unix-block", "block");
    config.put("restricted.devices.unix-char", "block");
    config.put("restricted.devices.unix-hotplug", "block");
    config.put("restricted.devices.infiniband", "block");
    return config;
  }
}
