package dev.agentcompute.capabilities.platform;

import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.model.ResolvedImage;
import dev.agentcompute.capabilities.model.Sandbox;
import java.util.Optional;

/** Images on a platform: the catalogue's and those published inside sandboxes. */
public interface ImageDriver {
  /** Checks every catalogue image of this platform is present; throws naming the first missing. */
  void reconcile(ImageCatalog catalog);

  /** A published image of the sandbox, if {@code name} is one. */
  Optional<ResolvedImage> published(Sandbox sandbox, String name);

  /** Publishes a stopped instance as a sandbox-scoped image named {@code image}. */
  void publish(Sandbox sandbox, String instance, String image, ResolvedImage origin);
}
