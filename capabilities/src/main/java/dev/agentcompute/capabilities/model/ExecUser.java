package dev.agentcompute.capabilities.model;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * instance.exec's {@code user} on Linux guests (docs/reference/capabilities.md#instanceexec) and
 * macOS guests (#macos-guests).
 */
public final class ExecUser {
  private ExecUser() {}

  /**
   * Absent or {@code root} mean root (0 for {@code root}, empty for the default); otherwise a
   * decimal uint32.
   */
  public static OptionalInt parse(Optional<String> user) {
    return parse(user, "user must be a numeric UID");
  }

  /**
   * On a macOS guest {@code lume} (and absent) is the guest's login user, which the Mac platform
   * runs as when given the default (empty); {@code root} and numbers as on Linux.
   */
  public static OptionalInt parseMac(Optional<String> user) {
    if (user.filter("lume"::equals).isPresent()) {
      return OptionalInt.empty();
    }
    return parse(user, "exec user must be lume, root, or a numeric UID");
  }

  private static OptionalInt parse(Optional<String> given, String refusal) {
    String user = given.orElse("");
    if (user.isEmpty()) {
      return OptionalInt.empty();
    }
    if (user.equals("root")) {
      return OptionalInt.of(0);
    }
    if (!user.chars().allMatch(Character::isDigit)
        || user.length() > 10
        || Long.parseLong(user) > 0xFFFFFFFFL) {
      throw Errors.of("%s", refusal);
    }
    return OptionalInt.of((int) Long.parseLong(user));
  }
}
