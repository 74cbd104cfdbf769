package dev.agentcompute.starlark.eval;

import java.util.List;

/** The methods of string values (spec §1.4). */
final class StringMethods {
  private StringMethods() {}

  static Value attr(StarlarkString s, String name) {
    return null;
  }

  static List<String> names() {
    return List.of();
  }

  /** Index of {@code needle} in {@code hay[from:to]}, or -1. */
  static int indexOf(byte[] hay, byte[] needle, int from, int to) {
    outer:
    for (int i = from; i + needle.length <= to; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
