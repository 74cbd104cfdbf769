package dev.agentcompute.codemode;

import java.util.List;

/**
 * What resources/read returns: the contents that passed both checks, and a warning for each item
 * that was visible but not readable ({@code <uri>: read denied}) in a read of several items.
 */
public record ResourceRead(List<Content> contents, List<String> warnings) {

  public ResourceRead {
    contents = List.copyOf(contents);
    warnings = List.copyOf(warnings);
  }

  /** One item and its body. */
  public record Content(ResourceItem item, ResourceBody body) {}
}
