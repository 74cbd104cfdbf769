package dev.agentcompute.capabilities.model;

import java.util.List;

/**
 * An image an instance can be created from: a catalogue entry or an image published in the sandbox.
 *
 * @param sourceAlias alias in the image source project (catalogue), empty for published images
 * @param fingerprint fingerprint of a published image in the sandbox project, empty for catalogue
 *     ones
 */
public record ResolvedImage(
    String name,
    String os,
    String version,
    String kind,
    List<String> kinds,
    String platform,
    boolean desktop,
    int cpus,
    int memoryMb,
    int diskGb,
    String sourceAlias,
    String fingerprint) {
  public ResolvedImage {
    kinds = List.copyOf(kinds);
  }
}
