package dev.agentcompute.server;

import java.nio.file.Path;

/** Validates an image catalogue file; throws with a message naming the problem. */
@FunctionalInterface
interface CatalogueCheck {
  void validate(Path file) throws Exception;
}
