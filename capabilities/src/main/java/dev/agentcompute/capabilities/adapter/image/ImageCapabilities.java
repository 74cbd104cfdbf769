package dev.agentcompute.capabilities.adapter.image;

import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.service.ImageService;
import dev.agentcompute.codemode.OmitEmpty;
import java.util.List;
import java.util.Optional;

/** image.list (docs/reference/capabilities.md#images). */
public final class ImageCapabilities {
  private ImageCapabilities() {}

  public record ListInput(
      Optional<String> os, Optional<Boolean> desktop, Optional<String> platform) {}

  public record Item(
      String name,
      String os,
      String version,
      String kind,
      boolean desktop,
      String platform,
      String description,
      @OmitEmpty Optional<Long> size_bytes) {}

  public record ListOutput(List<Item> items) {}

  public static List<CapabilityDefinition<?, ?>> definitions(ImageService images) {
    return List.of(
        new CapabilityDefinition<>(
            "image.list",
            "List curated images filtered by OS, desktop, or platform.",
            List.of("catalog", "images", "templates"),
            ListInput.class,
            ListOutput.class,
            (subject, in) ->
                new ListOutput(
                    images
                        .list(
                            in.os().orElse(null),
                            in.desktop().orElse(null),
                            in.platform().orElse(null))
                        .stream()
                        .map(
                            i ->
                                new Item(
                                    i.name(),
                                    i.os(),
                                    i.version(),
                                    i.kind(),
                                    i.desktop(),
                                    i.platform(),
                                    i.description(),
                                    images.sizeBytes(i)))
                        .toList())));
  }
}
