package dev.agentcompute.incus;

import java.util.List;
import java.util.Map;

/**
 * Publishes a (stopped) instance or snapshot as an image: {@code POST /1.0/images} with an instance
 * source. {@code aliases} are created with the image.
 */
public record ImagePublish(
    String instance,
    String sourceProject,
    boolean isPublic,
    Map<String, String> properties,
    List<String> aliases,
    List<String> profiles) {

  public static ImagePublish of(String instance) {
    return new ImagePublish(instance, null, false, Map.of(), List.of(), List.of());
  }

  public ImagePublish withProperties(Map<String, String> newProperties) {
    return new ImagePublish(instance, sourceProject, isPublic, newProperties, aliases, profiles);
  }

  public ImagePublish withAliases(List<String> newAliases) {
    return new ImagePublish(instance, sourceProject, isPublic, properties, newAliases, profiles);
  }

  public ImagePublish fromProject(String project) {
    return new ImagePublish(instance, project, isPublic, properties, aliases, profiles);
  }
}
