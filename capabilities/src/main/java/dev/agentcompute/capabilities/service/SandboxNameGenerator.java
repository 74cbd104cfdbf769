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

  private final RandomGenerator random;

  public SandboxNameGenerator(RandomGenerator random) {
    this.random = random;
  }

  public String next() {
    return ADJECTIVES.get(random.nextInt(ADJECTIVES.size()))
        + "-"
        + NOUNS.get(random.nextInt(NOUNS.size()));
  }
}
