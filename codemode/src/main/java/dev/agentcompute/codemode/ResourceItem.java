package dev.agentcompute.codemode;

import java.util.Map;
import java.util.Objects;

/**
 * One concrete resource a list or a read plans to return: what a {@link
 * dev.agentcompute.codemode.authz.ResourcePolicy} is asked about.
 *
 * @param uri the item's URI
 * @param name its name
 * @param title a presentation title; empty for none
 * @param description what it holds; empty for none
 * @param mimeType its body's media type; empty when unknown
 * @param source the registered resource or template it belongs to
 * @param variables the template variables of its URI (empty for a static resource)
 */
public record ResourceItem(
    String uri,
    String name,
    String title,
    String description,
    String mimeType,
    ResourceDescription source,
    Map<String, String> variables) {

  public ResourceItem {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(name, "name");
    title = title == null ? "" : title;
    description = description == null ? "" : description;
    mimeType = mimeType == null ? "" : mimeType;
    Objects.requireNonNull(source, "source");
    variables = variables == null ? Map.of() : Map.copyOf(variables);
  }

  /** The item of a static resource: its own description. */
  public static ResourceItem of(ResourceDescription resource) {
    return new ResourceItem(
        resource.uri(),
        resource.name(),
        resource.title(),
        resource.description(),
        resource.mimeType(),
        resource,
        Map.of());
  }

  /**
   * An item of {@code template} at {@code uri}, named {@code name}, with the template's type; the
   * URI must match the template.
   */
  public static ResourceItem of(ResourceDescription template, String uri, String name) {
    Map<String, String> variables = UriTemplate.parse(template.uriTemplate()).match(uri);
    if (variables == null) {
      throw new IllegalArgumentException(
          uri + " does not match the template " + template.uriTemplate());
    }
    return new ResourceItem(
        uri, name, "", template.description(), template.mimeType(), template, variables);
  }
}
