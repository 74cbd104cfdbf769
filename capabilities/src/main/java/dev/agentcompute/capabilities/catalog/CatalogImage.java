package dev.agentcompute.capabilities.catalog;

import java.util.List;

/** One curated image of {@code images/catalog.yaml} (docs/reference/capabilities.md#catalogue). */
public record CatalogImage(
    String name,
    String os,
    String version,
    String kind,
    List<String> kinds,
    String platform,
    boolean desktop,
    String description,
    ImageSource source,
    int cpus,
    int memoryMb,
    int diskGb) {
  public CatalogImage {
    kinds = List.copyOf(kinds);
  }
}
