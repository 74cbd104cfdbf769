package dev.agentcompute.codemode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.codemode.Fixtures.Empty;
import dev.agentcompute.codemode.Fixtures.StatusOut;
import dev.agentcompute.codemode.authz.AccessDenied;
import dev.agentcompute.codemode.authz.AccessRequest;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class DiscoveryTest {

  static final Subject USER = new Subject("user-1");
  static Server server;

  @BeforeAll
  static void build() throws CodeModeException {
    server =
        CodeMode.builder(
                Options.builder()
                    .policy(Policy.allowRegistered())
                    .disable("records.entry.hidden")
                    .build())
            .register(Fixtures.lookup())
            .register(Fixtures.status())
            .register(
                Capability.named(
                        "records.hidden", Fixtures.LookupIn.class, Fixtures.LookupOut.class)
                    .id("records.entry.hidden")
                    .summary("Look up one hidden record by key.")
                    .handler((c, s, i) -> null))
            .register(
                Capability.named("records.query", Fixtures.QueryIn.class, Fixtures.QueryOut.class)
                    .summary("Query records with a composite filter.")
                    .searchTerms("find stored item")
                    .handler((c, s, i) -> null))
            .register(
                Capability.named("records.rich", Empty.class, Fixtures.RichOut.class)
                    .summary("Rich output.")
                    .handler((c, s, i) -> null))
            .build();
  }

  @AfterAll
  static void close() {
    server.close();
  }

  @Test
  void signaturesAndShapes() throws CodeModeException {
    Description d = server.describe(Context.background(), USER, "records.lookup");
    assertThat(d.signature()).isEqualTo("records.lookup(*, key: str, limit: int | None)");
    assertThat(d.input())
        .containsExactly(
            new FieldShape("key", "str", true), new FieldShape("limit", "int | None", false));
    assertThat(d.output())
        .containsExactly(new FieldShape("key", "str", true), new FieldShape("count", "int", true));
    assertThat(d.description()).isEqualTo("Returns one deterministic record for the supplied key.");
    assertThat(server.describe(Context.background(), USER, "health.status").signature())
        .isEqualTo("health.status()");
    assertThat(server.describe(Context.background(), USER, "health.status").description())
        .isEqualTo("Report current health.");
    assertThat(server.describe(Context.background(), USER, "records.query").signature())
        .isEqualTo(
            "records.query(*, tags: list[str], filter: {owner: str, states: list[str], min_score: float | None}, "
                + "labels: dict[str, str], window: {from: str, \"until-day\": str} | None)");
    Description rich = server.describe(Context.background(), USER, "records.rich");
    assertThat(rich.output())
        .containsExactly(
            new FieldShape("items", "list[{title: str, score: float}]", true),
            new FieldShape("flags", "dict[str, bool]", true),
            new FieldShape("detail", "{value: str, detail?: str}", true),
            new FieldShape("names", "list[str | None] | None", true),
            new FieldShape("note", "str", false),
            new FieldShape("data", "list[int]", true));
  }

  @Test
  void describeIsExact() {
    for (String name :
        List.of("records.hidden", "Records.lookup", " records.lookup", "records", "nope.nope")) {
      assertThatThrownBy(() -> server.describe(Context.background(), USER, name))
          .isInstanceOfSatisfying(
              CodeModeException.class,
              e -> assertThat(e.clientText()).isEqualTo("capability not found"));
    }
  }

  @Test
  void searchRanksAndFilters() throws CodeModeException {
    SearchResponse r = server.search(Context.background(), USER, "look up record");
    assertThat(r.results())
        .extracting(SearchResult::name)
        .startsWith("records.lookup")
        .doesNotContain("records.hidden");
    assertThat(r.results().get(0).signature())
        .isEqualTo("records.lookup(*, key: str, limit: int | None)");
    assertThat(
            server.search(Context.background(), USER, "  RECORDS.QUERY ").results().get(0).name())
        .isEqualTo("records.query");
    assertThat(server.search(Context.background(), USER, "stored").results())
        .extracting(SearchResult::name)
        .containsExactly("records.query");
    assertThat(server.search(Context.background(), USER, "st").results()).isEmpty();
    assertThat(server.search(Context.background(), USER, "sto").results()).hasSize(1);
    assertThat(server.search(Context.background(), USER, "the of , ;"))
        .isEqualTo(new SearchResponse(List.of(), false));
    assertThat(server.search(Context.background(), USER, ""))
        .isEqualTo(new SearchResponse(List.of(), false));
  }

  @Test
  void searchBounds() {
    assertThatThrownBy(() -> server.search(Context.background(), USER, "x".repeat(257)))
        .isInstanceOfSatisfying(
            CodeModeException.class,
            e -> assertThat(e.failure()).isEqualTo(Failure.RESOURCE_LIMIT));
    assertThatThrownBy(
            () -> server.search(Context.background(), USER, "a1 b2 c3 d4 e5 f6 g7 h8 i9"))
        .isInstanceOfSatisfying(
            CodeModeException.class,
            e -> assertThat(e.failure()).isEqualTo(Failure.RESOURCE_LIMIT));
    assertThatThrownBy(() -> server.search(Context.background(), new Subject(""), "records"))
        .isInstanceOfSatisfying(
            CodeModeException.class,
            e -> assertThat(e.failure()).isEqualTo(Failure.UNAUTHENTICATED));
  }

  @Test
  void searchResultCountIsBounded() throws CodeModeException {
    Builder b =
        CodeMode.builder(
            Options.builder()
                .policy(Policy.allowRegistered())
                .limits(Limits.unset().withMaxSearchResults(2))
                .build());
    for (String n : List.of("w.alpha", "w.beta", "w.gamma")) {
      b.register(
          Capability.named(n, Empty.class, StatusOut.class)
              .summary("Widget operation.")
              .handler((c, s, i) -> null));
    }
    try (Server s = b.build()) {
      SearchResponse r = s.search(Context.background(), USER, "widget");
      assertThat(r.results()).extracting(SearchResult::name).containsExactly("w.alpha", "w.beta");
      assertThat(r.truncated()).isTrue();
    }
  }

  @Test
  void searchResponseBytesAreBounded() throws CodeModeException {
    Builder b =
        CodeMode.builder(
            Options.builder()
                .policy(Policy.allowRegistered())
                .limits(Limits.unset().withMaxSearchResults(100))
                .build());
    String longSummary = "Widget " + "x".repeat(3000) + ".";
    for (int i = 0; i < 30; i++) {
      b.register(
          Capability.named(
                  "w.op" + (char) ('a' + i / 26) + (char) ('a' + i % 26),
                  Empty.class,
                  StatusOut.class)
              .summary(longSummary)
              .handler((c, s, in) -> null));
    }
    try (Server s = b.build()) {
      SearchResponse r = s.search(Context.background(), USER, "widget");
      // Each compact result is 3,061 bytes: 21 fit under 65,536 with the envelope.
      assertThat(r.results()).hasSize(21);
      assertThat(r.truncated()).isTrue();
    }
  }

  @Test
  void discoveryPolicyHidesDeniedCapabilitiesLikeUnknownOnes() throws CodeModeException {
    Policy policy =
        new Policy() {
          @Override
          public void authorize(Context ctx, AccessRequest req) throws Exception {
            if (req.operation().equals("records.entry.lookup")
                && req.subject().id().equals("guest")) {
              throw new AccessDenied("guests cannot see lookups");
            }
            if (req.subject().id().equals("broken")) {
              throw new IllegalStateException("policy store down");
            }
          }

          @Override
          public String scopeKey(Context ctx, Subject subject) {
            return subject.id() + "/r1";
          }
        };
    try (Server s =
        CodeMode.builder(Options.builder().policy(policy).build())
            .register(Fixtures.lookup())
            .register(Fixtures.status())
            .build()) {
      Subject guest = new Subject("guest");
      assertThat(s.search(Context.background(), guest, "record lookup").results()).isEmpty();
      assertThat(s.search(Context.background(), USER, "record lookup").results()).hasSize(1);
      assertThatThrownBy(() -> s.describe(Context.background(), guest, "records.lookup"))
          .hasMessage("capability not found");
      assertThatThrownBy(() -> s.search(Context.background(), new Subject("broken"), "health"))
          .hasMessage("authorization policy failure");
      assertThat(s.scopeKey(Context.background(), guest)).isEqualTo("guest/r1");
    }
  }
}
