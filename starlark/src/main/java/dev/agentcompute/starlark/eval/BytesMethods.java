package dev.agentcompute.starlark.eval;

import java.util.List;

/** The methods of bytes values: only {@code elems()}. */
final class BytesMethods {
  private BytesMethods() {}

  static Value attr(StarlarkBytes b, String name) {
    return null;
  }

  static List<String> names() {
    return List.of("elems");
  }
}
