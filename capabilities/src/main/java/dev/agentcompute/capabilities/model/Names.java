package dev.agentcompute.capabilities.model;

import java.util.regex.Pattern;

/**
 * The name grammar shared by sandboxes, instances, networks, NICs, snapshots and published images
 * (docs/reference/capabilities.md#names): lowercase ASCII letters and digits with internal hyphens,
 * 1 to 32 characters; {@code default} and {@code none} are reserved except where a network argument
 * accepts them.
 */
public final class Names {
  public static final String DEFAULT = "default";
  public static final String NONE = "none";
  private static final Pattern GRAMMAR = Pattern.compile("[a-z0-9]([a-z0-9-]*[a-z0-9])?");
  private static final int MAX_LENGTH = 32;

  private Names() {}

  /** True when {@code name} follows the grammar (reserved words included). */
  public static boolean matchesGrammar(String name) {
    return name != null && name.length() <= MAX_LENGTH && GRAMMAR.matcher(name).matches();
  }

  /** Checks a name that must follow the grammar and must not be a reserved word. */
  public static String require(String name) {
    if (!matchesGrammar(name)) {
      throw Errors.invalidName(name == null ? "" : name);
    }
    if (name.equals(DEFAULT) || name.equals(NONE)) {
      throw Errors.reservedName(name);
    }
    return name;
  }

  /** Checks several names in order (each as {@link #require(String)}). */
  public static void require(String first, String... more) {
    require(first);
    for (String name : more) {
      require(name);
    }
  }

  /** Checks a network reference, where {@code default} names the sandbox's default network. */
  public static String requireNetworkRef(String name) {
    if (DEFAULT.equals(name)) {
      return name;
    }
    return require(name);
  }
}
