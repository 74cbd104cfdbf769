package dev.agentcompute.codemode.binding;

import java.util.Set;

/** Identifier and name rules shared by registration, the manifest and the worker. */
public final class Names {

  public static final Set<String> KEYWORDS =
      Set.of(
          "False",
          "None",
          "True",
          "and",
          "as",
          "async",
          "await",
          "break",
          "class",
          "continue",
          "def",
          "del",
          "elif",
          "else",
          "except",
          "finally",
          "for",
          "from",
          "global",
          "if",
          "import",
          "in",
          "is",
          "lambda",
          "load",
          "nonlocal",
          "not",
          "or",
          "pass",
          "raise",
          "return",
          "try",
          "while",
          "with",
          "yield");

  /** starlark-go Universe names plus CodeMode's sum, json and math. */
  public static final Set<String> RESERVED_ROOTS =
      Set.of(
          "None",
          "True",
          "False",
          "abs",
          "all",
          "any",
          "bool",
          "bytes",
          "chr",
          "dict",
          "dir",
          "enumerate",
          "fail",
          "float",
          "getattr",
          "hasattr",
          "hash",
          "int",
          "len",
          "list",
          "max",
          "min",
          "ord",
          "print",
          "range",
          "repr",
          "reversed",
          "set",
          "sorted",
          "str",
          "tuple",
          "type",
          "zip",
          "sum",
          "json",
          "math");

  private Names() {}

  /**
   * Letters (Unicode category L), {@code _}, and ASCII digits after the first position. Keywords
   * allowed.
   */
  public static boolean isIdentifierSyntax(String s) {
    if (s.isEmpty()) {
      return false;
    }
    int i = 0;
    while (i < s.length()) {
      int cp = s.codePointAt(i);
      boolean ok = cp == '_' || Character.isLetter(cp) || (i > 0 && cp >= '0' && cp <= '9');
      if (!ok) {
        return false;
      }
      i += Character.charCount(cp);
    }
    return true;
  }

  /** A Starlark identifier that is not a keyword. */
  public static boolean isIdentifier(String s) {
    return isIdentifierSyntax(s) && !KEYWORDS.contains(s);
  }

  /**
   * Go encoding/json's valid tag name: letters, digits and {@code !#$%&()*+-./:;<=>?@[]^_{|}~ }
   * plus space.
   */
  public static boolean isJsonName(String s) {
    if (s.isEmpty()) {
      return false;
    }
    return s.codePoints()
        .allMatch(
            c ->
                "!#$%&()*+-./:;<=>?@[]^_{|}~ ".indexOf(c) >= 0
                    || Character.isLetter(c)
                    || Character.getType(c) == Character.DECIMAL_DIGIT_NUMBER);
  }

  /** Problem with a dotted capability name, or null if valid. */
  public static String capabilityNameProblem(String name) {
    String[] segments = name.split("\\.", -1);
    if (segments.length < 2) {
      return "name " + GoQuote.quote(name) + " must have at least two dotted segments";
    }
    for (String seg : segments) {
      if (!isIdentifier(seg)) {
        return "name " + GoQuote.quote(name) + " has invalid segment " + GoQuote.quote(seg);
      }
    }
    if (RESERVED_ROOTS.contains(segments[0])) {
      return "name " + GoQuote.quote(name) + " uses reserved root " + GoQuote.quote(segments[0]);
    }
    return null;
  }
}
