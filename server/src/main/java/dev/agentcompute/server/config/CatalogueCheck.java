package dev.agentcompute.server.config;

import dev.agentcompute.capabilities.catalog.ImageCatalog;
import java.nio.file.Path;

/** Validates an image catalogue file; throws with a message naming the problem. */
@FunctionalInterface
public interface CatalogueCheck {
  /** The check the server runs: the catalogue parses and follows its strict schema. */
  CatalogueCheck IMAGE_CATALOG = ImageCatalog::load;

  void validate(Path file) throws Exception;
}
