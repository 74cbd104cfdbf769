package dev.agentcompute.codemode;

import java.util.List;

/**
 * One page of resources/list: at most 50 items in URI order.
 *
 * @param nextCursor the cursor of the next page; null on the last page
 */
public record ResourcePage(List<ResourceItem> items, String nextCursor) {

  public ResourcePage {
    items = List.copyOf(items);
  }
}
