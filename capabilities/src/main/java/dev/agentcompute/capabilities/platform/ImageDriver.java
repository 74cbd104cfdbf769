package dev.agentcompute.capabilities.platform;

import dev.agentcompute.capabilities.catalog.CatalogImage;
import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.model.ResolvedImage;
import dev.agentcompute.capabilities.model.Sandbox;
import java.util.Optional;

/** Images on a platform: the catalogue's and those published inside sandboxes. */
public interface ImageDriver {
  /** Checks every catalogue image of this platform is present; throws naming the first missing. */
  void reconcile(ImageCatalog catalog);

  /**
   * The size of a catalogue image's file as stored on this platform, when the platform knows it
   * (image.list shows it, so that an agent can pick the smallest image without trying each).
   */
  default Optional<Long> sizeBytes(CatalogImage image) {
    return Optional.empty();
  }

  /** A published image of the sandbox, if {@code name} is one. */
  Optional<ResolvedImage> published(Sandbox sandbox, String name);

  /** Publishes a stopped instance as a sandbox-scoped image named {@code image}. */
  void publish(Sandbox sandbox, String instance, String image, ResolvedImage origin);
}
