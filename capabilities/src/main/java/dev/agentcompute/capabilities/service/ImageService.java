package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.catalog.CatalogImage;
import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.catalog.ImageSource;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.ResolvedImage;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.platform.PlatformRouter;
import java.util.List;
import java.util.Optional;

/**
 * image.list (docs/reference/capabilities.md#images) and the image an instance is created from:
 * catalogue names win, otherwise an image published in the sandbox.
 */
public final class ImageService {
  private final SandboxAccess access;
  private final PlatformRouter router;
  private final ImageCatalog catalog;

  public ImageService(SandboxAccess access, ImageCatalog catalog) {
    this.access = access;
    this.router = access.router();
    this.catalog = catalog;
  }

  public ImageCatalog catalog() {
    return catalog;
  }

  /** Exact-match filters in catalogue order; a null filter matches everything. */
  public List<CatalogImage> list(String os, Boolean desktop, String platform) {
    return catalog.filter(os, desktop, platform);
  }

  /** The stored size of a catalogue image on its platform, when the platform reports one. */
  public Optional<Long> sizeBytes(CatalogImage image) {
    return router
        .platform(image.platform())
        .flatMap(p -> p.images())
        .flatMap(driver -> driver.sizeBytes(image));
  }

  /** Whether {@code name} is a catalogue image (which no published image may be called). */
  public boolean isCatalogued(String name) {
    return catalog.find(name).isPresent();
  }

  /**
   * The guest OS of an instance: its catalogue image's {@code os} (what Windows and desktop rules
   * go by), else what the instance reports ({@code image.os}, which Incus takes from the image).
   */
  public String osOf(SandboxInstance instance) {
    return catalog
        .find(instance.image())
        .map(CatalogImage::os)
        .orElse(instance.os() == null || instance.os().isEmpty() ? "unknown" : instance.os());
  }

  /** The catalogue entry of that name, else the sandbox's published image, else not found. */
  public ResolvedImage resolve(String sandboxName, String image) {
    if (image == null || image.isEmpty()) {
      throw Errors.imageNotFound("");
    }
    Optional<CatalogImage> entry = catalog.find(image);
    if (entry.isPresent()) {
      return fromCatalogue(entry.get());
    }
    Sandbox sandbox =
        access.find(sandboxName).orElseThrow(() -> Errors.sandboxNotFound(sandboxName));
    return router
        .of(sandbox)
        .images()
        .flatMap(images -> images.published(sandbox, image))
        .orElseThrow(() -> Errors.imageNotFound(image));
  }

  private static ResolvedImage fromCatalogue(CatalogImage c) {
    String alias =
        switch (c.source()) {
          case ImageSource.Alias a -> a.alias();
          case ImageSource.Reference r -> c.name();
          case ImageSource.Seed s -> s.seed();
        };
    return new ResolvedImage(
        c.name(),
        c.os(),
        c.version(),
        c.kind(),
        c.kinds(),
        c.platform(),
        c.desktop(),
        c.cpus(),
        c.memoryMb(),
        c.diskGb(),
        alias,
        "");
  }
}
