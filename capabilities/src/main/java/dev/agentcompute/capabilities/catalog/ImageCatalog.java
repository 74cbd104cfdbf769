package dev.agentcompute.capabilities.catalog;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The curated images, in file order. */
public record ImageCatalog(List<CatalogImage> images) {
  public ImageCatalog {
    images = List.copyOf(images);
  }

  /** Loads and validates a catalogue file (strict schema, see {@link CatalogParser}). */
  public static ImageCatalog load(Path file) {
    return CatalogParser.load(file);
  }

  /** Parses catalogue YAML text (strict schema). */
  public static ImageCatalog parse(String yaml) {
    return CatalogParser.parse(yaml);
  }

  public Optional<CatalogImage> find(String name) {
    return images.stream().filter(image -> image.name().equals(name)).findFirst();
  }

  /** Exact-match filters; a null filter matches everything. */
  public List<CatalogImage> filter(String os, Boolean desktop, String platform) {
    return images.stream()
        .filter(image -> os == null || image.os().equals(os))
        .filter(image -> desktop == null || image.desktop() == desktop)
        .filter(image -> platform == null || image.platform().equals(platform))
        .toList();
  }
}
