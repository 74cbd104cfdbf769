package dev.agentcompute.capabilities.model;

/**
 * instance.exec's {@code user} on Linux guests (docs/reference/capabilities.md#instanceexec) and
 * macOS guests (#macos-guests).
 */
public final class ExecUser {
  private ExecUser() {}

  /**
   * {@code ""} or {@code root} mean root; otherwise a decimal uint32. Returns -1 for the default.
   */
  public static int parse(String user) {
    return parse(user, "user must be a numeric UID");
  }

  /**
   * On a macOS guest {@code lume} (and {@code ""}) is the guest's login user, which the Mac
   * platform runs as when given the default (-1); {@code root} and numbers as on Linux.
   */
  public static int parseMac(String user) {
    if ("lume".equals(user)) {
      return -1;
    }
    return parse(user, "exec user must be lume, root, or a numeric UID");
  }

  private static int parse(String user, String refusal) {
    if (user == null || user.isEmpty()) {
      return -1;
    }
    if (user.equals("root")) {
      return 0;
    }
    if (!user.chars().allMatch(Character::isDigit)
        || user.length() > 10
        || Long.parseLong(user) > 0xFFFFFFFFL) {
      throw Errors.of("%s", refusal);
    }
    return (int) Long.parseLong(user);
  }
}
