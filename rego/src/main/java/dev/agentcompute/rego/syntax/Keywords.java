package dev.agentcompute.rego.syntax;

import java.util.Set;

/** Rego v1's reserved words. */
final class Keywords {
  private Keywords() {}

  private static final Set<String> WORDS =
      Set.of(
          "as",
          "contains",
          "default",
          "else",
          "every",
          "false",
          "if",
          "import",
          "in",
          "not",
          "null",
          "package",
          "some",
          "true",
          "with");

  static boolean isKeyword(String s) {
    return WORDS.contains(s);
  }
}
