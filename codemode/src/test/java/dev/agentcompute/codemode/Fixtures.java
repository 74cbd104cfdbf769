package dev.agentcompute.codemode;

import dev.agentcompute.codemode.authz.Policy;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/** Records and capabilities shared by the tests. */
final class Fixtures {

  private Fixtures() {}

  record LookupIn(String key, OptionalLong limit) {}

  record LookupOut(String key, long count) {}

  record Empty() {}

  record StatusOut(String state) {}

  record Window(String from, @StarlarkName("until-day") String untilDay) {}

  record Filter(
      String owner, List<String> states, @StarlarkName("min_score") OptionalDouble minScore) {}

  record QueryIn(
      List<String> tags, Filter filter, Map<String, String> labels, Optional<Window> window) {}

  record QueryOut(String owner, @StarlarkName("tag_count") long tagCount) {}

  record Item(String title, double score) {}

  record Detail(String value, @OmitEmpty Optional<String> detail) {}

  record RichOut(
      List<Item> items,
      Map<String, Boolean> flags,
      Detail detail,
      @Nullable List<@Nullable String> names,
      @OmitEmpty Optional<String> note,
      byte[] data) {}

  static Capability<LookupIn, LookupOut> lookup() {
    return Capability.named("records.lookup", LookupIn.class, LookupOut.class)
        .id("records.entry.lookup")
        .summary("Look up one record by key.")
        .description("Returns one deterministic record for the supplied key.")
        .handler((ctx, s, in) -> new LookupOut(in.key(), in.limit().orElse(0)));
  }

  static Capability<Empty, StatusOut> status() {
    return Capability.named("health.status", Empty.class, StatusOut.class)
        .id("health.entry.status")
        .summary("Report current health.")
        .handler((ctx, s, in) -> new StatusOut("ok"));
  }

  static Options allowAll() {
    return Options.builder().policy(Policy.allowRegistered()).build();
  }
}
