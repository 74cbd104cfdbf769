package dev.agentcompute.capabilities.platform;

import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.Sandbox;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The platforms sandboxes run on, in lookup order, and the cross-platform rules
 * (docs/reference/capabilities.md#sandboxcreate, #macos-guests): a sandbox is looked up on Incus
 * first and then on the others, so a name is unique across platforms; {@code sandbox.list} merges
 * them in that order; every other call goes to the platform the sandbox recorded.
 */
public final class PlatformRouter {
  private final Map<String, Platform> platforms = new LinkedHashMap<>();

  /** {@code platforms} in lookup order (Incus first); names must differ. */
  public PlatformRouter(List<Platform> platforms) {
    if (platforms.isEmpty()) {
      throw new IllegalArgumentException("at least one platform is required");
    }
    for (Platform platform : platforms) {
      if (this.platforms.putIfAbsent(platform.name(), platform) != null) {
        throw new IllegalArgumentException("platform " + platform.name() + " given twice");
      }
    }
  }

  /** The platform new sandboxes get when none is asked for. */
  public Platform defaultPlatform() {
    return platforms.values().iterator().next();
  }

  /** The configured platform of that name. */
  public Optional<Platform> platform(String name) {
    return Optional.ofNullable(platforms.get(name));
  }

  /** The platform a sandbox recorded; it is always one that is configured. */
  public Platform of(Sandbox sandbox) {
    Platform platform = platforms.get(sandbox.platform());
    if (platform == null) {
      throw new IllegalStateException("sandbox " + sandbox.name() + " has no platform here");
    }
    return platform;
  }

  /** The sandbox of that name on the first platform that has it. */
  public Optional<Sandbox> find(String name) {
    for (Platform platform : platforms.values()) {
      Optional<Sandbox> found = platform.sandboxes().find(name);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  /** Every sandbox of every platform, platform by platform. */
  public List<Sandbox> list() {
    List<Sandbox> all = new ArrayList<>();
    for (Platform platform : platforms.values()) {
      all.addAll(platform.sandboxes().list());
    }
    return all;
  }

  /**
   * Every sandbox of every platform that answers; a platform that fails is reported to {@code
   * unreachable} and skipped, so the reaper keeps reaping Incus while the Mac host is down.
   */
  public List<Sandbox> listReachable(
      java.util.function.BiConsumer<String, RuntimeException> unreachable) {
    List<Sandbox> all = new ArrayList<>();
    for (Platform platform : platforms.values()) {
      try {
        all.addAll(platform.sandboxes().list());
      } catch (RuntimeException e) {
        unreachable.accept(platform.name(), e);
      }
    }
    return all;
  }

  /** True when every platform is ready. */
  public boolean ready() {
    return platforms.values().stream().allMatch(Platform::ready);
  }

  /** True when the platform {@code sandbox} runs on declares {@code feature}. */
  public boolean supports(Sandbox sandbox, PlatformFeature feature) {
    return of(sandbox).supports(feature);
  }

  /**
   * The platform names a sandbox or image may name, configured here or not: a name outside them is
   * refused as unknown, a known one that is not configured as unavailable.
   */
  public static final Set<String> KNOWN_PLATFORMS = Set.of("incus", "mac");

  /** The platform's network driver, or {@code unsupported on platform <p>}. */
  public NetworkDriver networks(Sandbox sandbox) {
    return of(sandbox).networks().orElseThrow(() -> Errors.unsupportedOn(sandbox.platform()));
  }

  /** The platform's OVN fabric, or {@code unsupported on platform <p>}. */
  public OvnFabric ovn(Sandbox sandbox) {
    return of(sandbox).ovn().orElseThrow(() -> Errors.unsupportedOn(sandbox.platform()));
  }

  /** The platform's image driver, or {@code unsupported on platform <p>}. */
  public ImageDriver images(Sandbox sandbox) {
    return of(sandbox).images().orElseThrow(() -> Errors.unsupportedOn(sandbox.platform()));
  }

  /**
   * The platform's streamed files, or a refusal naming {@code capability} and the platform (only
   * Incus sandboxes have a file API to stream through).
   */
  public FileDriver files(Sandbox sandbox, String capability) {
    return of(sandbox)
        .files()
        .orElseThrow(
            () ->
                Errors.of(
                    "%s is unsupported on platform %s: only Incus sandboxes have a file API to"
                        + " stream through; use instance.exec there",
                    capability, sandbox.platform()));
  }

  public InstanceDriver instances(Sandbox sandbox) {
    return of(sandbox).instances();
  }

  public SnapshotDriver snapshots(Sandbox sandbox) {
    return of(sandbox).snapshots();
  }

  /** Every configured platform, in lookup order. */
  public List<Platform> platforms() {
    return List.copyOf(platforms.values());
  }
}
