package dev.agentcompute.codemode;

import dev.agentcompute.codemode.authz.Subject;
import java.util.List;

/**
 * One registered resource or template and the application code behind it. The framework asks the
 * {@link dev.agentcompute.codemode.authz.ResourcePolicy} about every item before it lists or reads
 * it; a source only says what exists. All methods may be called concurrently.
 */
public interface ResourceSource {

  /** What resources/list (static) or resources/templates/list (template) shows. */
  ResourceDescription description();

  /** The items resources/list offers (a template may list none: it is then read-only by URI). */
  List<ResourceItem> list(Context ctx, Subject subject) throws Exception;

  /**
   * The items a read of {@code uri} returns: empty when the URI is not this source's, several for a
   * read that returns several contents.
   */
  List<ResourceItem> resolve(Context ctx, Subject subject, String uri) throws Exception;

  /** The body of one item; throw {@link AgentError} to tell the caller what went wrong. */
  ResourceBody read(Context ctx, Subject subject, ResourceItem item) throws Exception;

  /** Reads one item's body. */
  @FunctionalInterface
  interface Reader {
    ResourceBody read(Context ctx, Subject subject, ResourceItem item) throws Exception;
  }

  /** Lists a template's items. */
  @FunctionalInterface
  interface Lister {
    List<ResourceItem> list(Context ctx, Subject subject) throws Exception;
  }

  /** A static resource: listed as itself, read at its URI. */
  static ResourceSource of(ResourceDescription resource, Reader reader) {
    if (resource.isTemplate()) {
      throw new IllegalArgumentException("a static resource has a uri, not a template");
    }
    return new ResourceSource() {
      @Override
      public ResourceDescription description() {
        return resource;
      }

      @Override
      public List<ResourceItem> list(Context ctx, Subject subject) {
        return List.of(ResourceItem.of(resource));
      }

      @Override
      public List<ResourceItem> resolve(Context ctx, Subject subject, String uri) {
        return resource.uri().equals(uri) ? List.of(ResourceItem.of(resource)) : List.of();
      }

      @Override
      public ResourceBody read(Context ctx, Subject subject, ResourceItem item) throws Exception {
        return reader.read(ctx, subject, item);
      }
    };
  }

  /**
   * A template: {@code lister} names the items resources/list offers; a read of any URI matching
   * the template is one item named after the template.
   */
  static ResourceSource template(ResourceDescription template, Lister lister, Reader reader) {
    UriTemplate pattern = UriTemplate.parse(template.uriTemplate());
    return new ResourceSource() {
      @Override
      public ResourceDescription description() {
        return template;
      }

      @Override
      public List<ResourceItem> list(Context ctx, Subject subject) throws Exception {
        return lister.list(ctx, subject);
      }

      @Override
      public List<ResourceItem> resolve(Context ctx, Subject subject, String uri) {
        return pattern.match(uri) == null
            ? List.of()
            : List.of(ResourceItem.of(template, uri, template.name()));
      }

      @Override
      public ResourceBody read(Context ctx, Subject subject, ResourceItem item) throws Exception {
        return reader.read(ctx, subject, item);
      }
    };
  }
}
