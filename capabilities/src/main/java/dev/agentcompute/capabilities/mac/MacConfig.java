package dev.agentcompute.capabilities.mac;

import dev.agentcompute.capabilities.model.Errors;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * What the Mac backend needs beyond the host connection.
 *
 * @param guestKeys the guest SSH key of each catalogue image ({@code lume.guest_keys})
 * @param protectedSeeds the catalogue's seed VM names: never deleted or restored over
 * @param runWindow how long a started VM may take to report running (12 s; shorter in tests)
 * @param createBudget the whole create and start, boot and readiness included
 */
public record MacConfig(
    Map<String, Path> guestKeys,
    Set<String> protectedSeeds,
    Duration runWindow,
    Duration createBudget) {
  public MacConfig {
    guestKeys = Map.copyOf(guestKeys);
    protectedSeeds = Set.copyOf(protectedSeeds);
  }

  public static final Duration RUN_WINDOW = Duration.ofSeconds(12);

  public MacConfig(Map<String, Path> guestKeys, Set<String> protectedSeeds) {
    this(guestKeys, protectedSeeds, RUN_WINDOW, Duration.ofMinutes(10));
  }

  /** The configuration for {@code catalog}: its mac images' seeds are protected. */
  public static MacConfig forCatalog(
      dev.agentcompute.capabilities.catalog.ImageCatalog catalog, Map<String, Path> guestKeys) {
    Set<String> seeds = new java.util.TreeSet<>();
    for (var image : catalog.images()) {
      if (image.source()
          instanceof dev.agentcompute.capabilities.catalog.ImageSource.Seed(String seed)) {
        seeds.add(seed);
      }
    }
    return new MacConfig(guestKeys, seeds);
  }

  Path guestKey(String image) {
    Path key = guestKeys.get(image);
    if (key == null) {
      throw Errors.of("image \"%s\" has no guest key in lume.guest_keys", image);
    }
    return key;
  }
}
