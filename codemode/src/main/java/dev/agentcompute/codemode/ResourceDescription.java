package dev.agentcompute.codemode;

import java.util.Objects;

/**
 * A registered resource or resource template (MCP {@code resources/list} and {@code
 * resources/templates/list}).
 *
 * @param uri the URI of a static resource; empty for a template
 * @param uriTemplate the RFC 6570 level-1 template ({@code agentcompute://sandboxes/{name}}) of a
 *     template; empty for a static resource
 * @param name the resource's name
 * @param title a presentation title; empty for none
 * @param description what the resource holds; empty for none
 * @param mimeType the body's media type; empty when unknown
 */
public record ResourceDescription(
    String uri,
    String uriTemplate,
    String name,
    String title,
    String description,
    String mimeType) {

  public ResourceDescription {
    uri = uri == null ? "" : uri;
    uriTemplate = uriTemplate == null ? "" : uriTemplate;
    Objects.requireNonNull(name, "name");
    title = title == null ? "" : title;
    description = description == null ? "" : description;
    mimeType = mimeType == null ? "" : mimeType;
  }

  /** A static resource at {@code uri}. */
  public static ResourceDescription resource(String uri, String name) {
    return new ResourceDescription(Objects.requireNonNull(uri, "uri"), "", name, "", "", "");
  }

  /** A template whose URIs expand {@code uriTemplate}. */
  public static ResourceDescription template(String uriTemplate, String name) {
    return new ResourceDescription(
        "", Objects.requireNonNull(uriTemplate, "uriTemplate"), name, "", "", "");
  }

  public boolean isTemplate() {
    return !uriTemplate.isEmpty();
  }

  public ResourceDescription withTitle(String title) {
    return new ResourceDescription(uri, uriTemplate, name, title, description, mimeType);
  }

  public ResourceDescription withDescription(String description) {
    return new ResourceDescription(uri, uriTemplate, name, title, description, mimeType);
  }

  public ResourceDescription withMimeType(String mimeType) {
    return new ResourceDescription(uri, uriTemplate, name, title, description, mimeType);
  }
}
