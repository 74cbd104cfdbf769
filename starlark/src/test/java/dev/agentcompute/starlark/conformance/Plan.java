package dev.agentcompute.starlark.conformance;

import java.util.Set;

/**
 * What to do with a chunk under a profile.
 *
 * @param reason why it is skipped, or what the adaptation removed
 * @param runSource the source to run (the chunk's, or the adapted one)
 * @param features the test helpers the chunk uses
 */
record Plan(Status status, String reason, String runSource, Set<String> features) {
  enum Status {
    RUN,
    ADAPTED,
    SKIP
  }

  static Plan run(Chunk c, Set<String> features) {
    return new Plan(Status.RUN, "", c.source(), features);
  }

  static Plan skip(String reason, Set<String> features) {
    return new Plan(Status.SKIP, reason, null, features);
  }
}
