package dev.agentcompute.starlark.eval;

import java.util.List;

/** The methods of list values (spec §1.4). */
final class ListMethods {
  private ListMethods() {}

  static Value attr(StarlarkList l, String name) {
    return null;
  }

  static List<String> names() {
    return List.of();
  }
}
