package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.catalog.CatalogException;
import dev.agentcompute.capabilities.catalog.CatalogImage;
import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.catalog.ImageSource;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.ResolvedImage;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.platform.ImageDriver;
import dev.agentcompute.incus.Image;
import dev.agentcompute.incus.ImagePublish;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Catalogue images in the image project (checked at startup) and images published inside a sandbox
 * project, whose properties carry what the instance they came from had.
 */
final class IncusImageDriver implements ImageDriver {
  /** What a published image gets when the image its instance came from is gone. */
  private static final int DEFAULT_CPUS = 1;

  private static final int DEFAULT_MEMORY_MB = 512;
  private static final int DEFAULT_DISK_GB = 2;

  private final IncusClient client;
  private final ComputeConfig config;
  private final InstanceReader reader;
  private final Map<String, Optional<Long>> sizes = new java.util.concurrent.ConcurrentHashMap<>();

  IncusImageDriver(IncusClient client, ComputeConfig config, InstanceReader reader) {
    this.client = client;
    this.config = config;
    this.reader = reader;
  }

  @Override
  public void reconcile(ImageCatalog catalog) {
    for (CatalogImage image : catalog.images()) {
      if (!image.platform().equals(IncusPlatform.NAME)) {
        continue;
      }
      switch (image.source()) {
        case ImageSource.Alias alias -> requireAlias(image, alias);
        case ImageSource.Reference reference when reference.isRemoteAlias() -> {
          // Fetched on first use, like the original; nothing to check at startup.
        }
        case ImageSource.Reference reference -> requireImported(image, reference);
        case ImageSource.Seed seed -> {
          // Mac seeds are host-local.
        }
      }
    }
  }

  /**
   * The stored image's size, looked up once per alias: an alias's image is replaced only by an
   * operator's import, after which the server is restarted to reconcile the catalogue again.
   */
  @Override
  public Optional<Long> sizeBytes(CatalogImage image) {
    if (!image.platform().equals(IncusPlatform.NAME)) {
      return Optional.empty();
    }
    String alias =
        switch (image.source()) {
          case ImageSource.Alias a -> a.alias();
          case ImageSource.Reference r when r.isRemoteAlias() -> null; // fetched on first use
          case ImageSource.Reference r -> image.name();
          case ImageSource.Seed s -> null;
        };
    if (alias == null) {
      return Optional.empty();
    }
    Optional<Long> known = sizes.get(alias);
    if (known != null) {
      return known;
    }
    IncusClient images = client.inProject(config.imageProject());
    try {
      Optional<Long> size =
          Optional.of(images.images().get(images.images().alias(alias, null).target()).size())
              .filter(bytes -> bytes > 0);
      sizes.put(alias, size);
      return size;
    } catch (IncusException e) {
      // A size is extra information: image.list answers without it (and asks again next time)
      // rather than failing because Incus did not answer this one lookup.
      return Optional.empty();
    }
  }

  private void requireAlias(CatalogImage image, ImageSource.Alias alias) {
    try {
      client.inProject(config.imageProject()).images().alias(alias.alias(), null);
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        throw new CatalogException(
            "catalog image \""
                + image.name()
                + "\": alias \""
                + alias.alias()
                + "\" is missing from Incus project \""
                + config.imageProject()
                + "\"");
      }
      throw e;
    }
  }

  private void requireImported(CatalogImage image, ImageSource.Reference reference) {
    String digest = reference.reference().substring(reference.reference().indexOf("@") + 1);
    if (!aliasHasDigest(image.name(), digest)) {
      throw new CatalogException(
          "catalog image \""
              + image.name()
              + "\": "
              + reference.reference()
              + " is not imported; fetching OCI images is not available here, so import it into"
              + " project \""
              + config.imageProject()
              + "\" as alias \""
              + image.name()
              + "\" with property agentcompute.digest="
              + digest);
    }
  }

  private boolean aliasHasDigest(String alias, String digest) {
    IncusClient images = client.inProject(config.imageProject());
    try {
      String fingerprint = images.images().alias(alias, null).target();
      return digest.equals(
          images.images().get(fingerprint).properties().getOrDefault("agentcompute.digest", ""));
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        return false;
      }
      throw e;
    }
  }

  @Override
  public Optional<ResolvedImage> published(Sandbox sandbox, String name) {
    IncusClient project = reader.in(sandbox);
    try {
      Image image = project.images().get(project.images().alias(name, null).target());
      Map<String, String> props = image.properties();
      if (!"true".equals(props.get(Meta.PUBLISHED)) || !"1".equals(props.get(Meta.VERSION))) {
        return Optional.empty();
      }
      String kind =
          props.getOrDefault(
              Meta.PREFIX + "kind", "virtual-machine".equals(image.type()) ? "vm" : "container");
      String version = props.getOrDefault("release", props.getOrDefault("version", "published"));
      return Optional.of(
          new ResolvedImage(
              name,
              props.getOrDefault("os", "unknown"),
              version,
              kind,
              List.of(kind),
              IncusPlatform.NAME,
              "true".equals(props.get(Meta.DESKTOP)),
              positive(props.getOrDefault(Meta.PREFIX + "cpus", ""), DEFAULT_CPUS),
              positive(props.getOrDefault(Meta.PREFIX + "memory_mb", ""), DEFAULT_MEMORY_MB),
              positive(props.getOrDefault(Meta.PREFIX + "disk_gb", ""), DEFAULT_DISK_GB),
              "",
              image.fingerprint()));
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        return Optional.empty();
      }
      throw e;
    }
  }

  private static int positive(String text, int fallback) {
    int value = InstanceReader.parseInt(text);
    return value > 0 ? value : fallback;
  }

  @Override
  public void publish(Sandbox sandbox, String name, String image, ResolvedImage origin) {
    IncusClient project = reader.in(sandbox);
    SandboxInstance instance = reader.require(sandbox, name);
    if (!instance.status().equals("Stopped")) {
      throw Errors.of("instance \"%s\" must be stopped before publishing", name);
    }
    try {
      project.images().alias(image, null);
      throw Errors.of("image \"%s\" already exists in sandbox \"%s\"", image, sandbox.name());
    } catch (IncusException e) {
      if (!IncusFailures.isNotFound(e)) {
        throw e;
      }
    }
    Map<String, String> properties = new LinkedHashMap<>();
    project
        .instances()
        .getTagged(name)
        .value()
        .config()
        .forEach(
            (key, value) -> {
              if (key.startsWith("image.")) {
                properties.put(key.substring("image.".length()), value);
              }
            });
    properties.put(Meta.VERSION, "1");
    properties.put(Meta.SANDBOX, sandbox.name());
    properties.put(Meta.IMAGE, image);
    properties.put(Meta.PUBLISHED, "true");
    properties.put(Meta.DESKTOP, Boolean.toString(instance.desktop()));
    properties.put(Meta.PREFIX + "kind", instance.kind());
    properties.put(
        Meta.PREFIX + "cpus", Integer.toString(origin == null ? DEFAULT_CPUS : origin.cpus()));
    properties.put(
        Meta.PREFIX + "memory_mb",
        Integer.toString(origin == null ? DEFAULT_MEMORY_MB : origin.memoryMb()));
    properties.put(
        Meta.PREFIX + "disk_gb",
        Integer.toString(origin == null ? DEFAULT_DISK_GB : origin.diskGb()));
    project
        .images()
        .publish(ImagePublish.of(name).withProperties(properties).withAliases(List.of(image)));
  }
}
