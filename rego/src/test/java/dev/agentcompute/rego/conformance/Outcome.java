package dev.agentcompute.rego.conformance;

/** How one case went; {@code why} explains a failure or skip. */
record Outcome(Status status, String why) {
  enum Status {
    PASSED,
    FAILED,
    SKIPPED
  }

  static final Outcome PASS = new Outcome(Status.PASSED, "");

  static Outcome fail(String why) {
    return new Outcome(Status.FAILED, why);
  }

  static Outcome skip(String why) {
    return new Outcome(Status.SKIPPED, why);
  }
}
