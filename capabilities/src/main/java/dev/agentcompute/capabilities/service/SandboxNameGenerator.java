package dev.agentcompute.capabilities.service;

import java.util.List;
import java.util.random.RandomGenerator;

/** Generates {@code <adjective>-<noun>} sandbox names from the original's two twelve-word lists. */
public final class SandboxNameGenerator {
  /** How many names are tried before giving up (docs/reference/capabilities.md#sandboxcreate). */
  public static final int ATTEMPTS = 64;

  private static final List<String> ADJECTIVES =
      List.of(
          "amber", "brisk", "coral", "dusky", "eager", "fern", "golden", "hardy", "ivory", "jade",
          "keen", "lucky");
  private static final List<String> NOUNS =
      List.of(
          "acorn", "brook", "cedar", "daisy", "ember", "falcon", "grove", "heron", "inlet",
          "jasper", "kestrel", "lagoon");

  /** Base32's lower-case letters and digits: 5 bits a character. */
  private static final String SUFFIX_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

  private static final int SUFFIX_CHARS = 10;

  private final RandomGenerator random;
  private final boolean suffixed;
  private final java.security.SecureRandom secure = new java.security.SecureRandom();

  public SandboxNameGenerator(RandomGenerator random) {
    this(random, false);
  }

  /**
   * {@code suffixed} (owner isolation) appends 10 random base32 characters (50 bits from a secure
   * generator), so that a name another identity's sandbox has cannot be guessed; the 144 plain
   * names would be found in 144 tries.
   */
  public SandboxNameGenerator(RandomGenerator random, boolean suffixed) {
    this.random = random;
    this.suffixed = suffixed;
  }

  public String next() {
    String name =
        ADJECTIVES.get(random.nextInt(ADJECTIVES.size()))
            + "-"
            + NOUNS.get(random.nextInt(NOUNS.size()));
    if (!suffixed) {
      return name;
    }
    StringBuilder suffix = new StringBuilder(name).append('-');
    for (int i = 0; i < SUFFIX_CHARS; i++) {
      suffix.append(SUFFIX_ALPHABET.charAt(secure.nextInt(SUFFIX_ALPHABET.length())));
    }
    return suffix.toString();
  }
}
