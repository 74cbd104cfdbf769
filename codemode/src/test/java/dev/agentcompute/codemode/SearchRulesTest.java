package dev.agentcompute.codemode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.codemode.Fixtures.Empty;
import dev.agentcompute.codemode.Fixtures.StatusOut;
import dev.agentcompute.codemode.authz.Authorizer;
import dev.agentcompute.codemode.authz.Subject;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Search ranking rules (docs/reference/codemode.md#search, R25-R36 and R87), asserted through
 * result order.
 */
class SearchRulesTest {

  static final Subject USER = new Subject("u");

  record Doc(String name, String summary, String description, String... terms) {}

  private static Server server(Options options, Doc... docs) throws CodeModeException {
    Builder b = CodeMode.builder(options);
    for (Doc d : docs) {
      b.register(
          Capability.named(d.name(), Empty.class, StatusOut.class)
              .id(d.name() + ".id")
              .summary(d.summary())
              .description(d.description())
              .searchTerms(d.terms())
              .handler((c, s, i) -> new StatusOut("ok")));
    }
    return b.build();
  }

  private static List<String> names(Server s, String query) throws CodeModeException {
    return s.search(Context.background(), USER, query).results().stream()
        .map(SearchResult::name)
        .toList();
  }

  @Test
  void fieldWeightsRankNameThenTermsThenSummaryThenDescription() throws CodeModeException {
    try (Server s =
        server(
            Fixtures.allowAll(),
            new Doc("d.one", "Other.", "Gadget."),
            new Doc("c.two", "Gadget.", ""),
            new Doc("b.three", "Other.", "", "gadget"),
            new Doc("z.gadget", "Other.", ""))) {
      assertThat(names(s, "gadget")).containsExactly("z.gadget", "b.three", "c.two", "d.one");
    }
  }

  @Test
  void exactBeatsPrefixAndThereIsNoInfixMatch() throws CodeModeException {
    try (Server s =
        server(
            Fixtures.allowAll(),
            new Doc("a.store", "Other.", ""),
            new Doc("b.sto", "Other.", ""),
            new Doc("c.mysql", "Other.", ""),
            new Doc("d.github", "Other.", ""))) {
      assertThat(names(s, "sto")).containsExactly("b.sto", "a.store");
      assertThat(names(s, "sql")).isEmpty();
      assertThat(names(s, "hub")).isEmpty();
      assertThat(names(s, "git")).containsExactly("d.github");
    }
  }

  /*
   * N = 4 enabled docs; df(alpha) = 2, df(beta) = 3, df(gamma) = 1, so idf = 4, 2, 6.
   * "alpha beta gamma" (q = 3) needs 2 matches: a.first scores (2000 + 1000) * 2 / 3 = 2000,
   * b.second (2000 + 3000) * 2 / 3 = 3333, the beta-only docs are not eligible. Without idf
   * the two would tie and a.first would come first by name. Disabled docs full of gamma must
   * not change df (with them counted a.first would win).
   */
  @Test
  void rarityEligibilityAndDisabledDocuments() throws CodeModeException {
    Doc[] docs = {
      new Doc("a.first", "Alpha beta.", ""),
      new Doc("b.second", "Alpha gamma.", ""),
      new Doc("c.third", "Beta.", ""),
      new Doc("c.fourth", "Beta.", ""),
      new Doc("x.one", "Gamma.", ""),
      new Doc("x.two", "Gamma.", ""),
      new Doc("x.three", "Gamma.", "")
    };
    Options options =
        Options.builder()
            .authorizer(Authorizer.allowAll())
            .disable("x.one.id", "x.two.id", "x.three.id")
            .build();
    try (Server s = server(options, docs)) {
      assertThat(names(s, "alpha beta gamma")).containsExactly("b.second", "a.first");
      assertThat(names(s, "gamma")).containsExactly("b.second");
    }
  }

  @Test
  void anExactNameHitComesFirstWhateverItsScore() throws CodeModeException {
    try (Server s =
        server(
            Fixtures.allowAll(),
            new Doc("lookup.widget", "Widget lookup widget.", "Lookup widget.", "widget"),
            new Doc("widget.lookup", "Other.", ""))) {
      assertThat(names(s, "lookup widget")).containsExactly("lookup.widget", "widget.lookup");
      assertThat(names(s, " Widget.LOOKUP\t")).containsExactly("widget.lookup", "lookup.widget");
    }
  }

  @Test
  void connectorsDuplicatesAndBounds() throws CodeModeException {
    try (Server s = server(Fixtures.allowAll(), new Doc("a.thing", "Thing.", ""))) {
      assertThat(
              s.search(Context.background(), USER, "a an and by for from in of on or the to with"))
          .isEqualTo(new SearchResponse(List.of(), false));
      assertThat(names(s, "thing " + "thing ".repeat(30))).containsExactly("a.thing");
      String seventeen =
          String.join(
              " ",
              List.of(
                  "aa", "bb", "cc", "dd", "ee", "ff", "gg", "hh", "ii", "jj", "kk", "ll", "mm",
                  "nn", "oo", "pp", "qq"));
      assertThatThrownBy(() -> s.search(Context.background(), USER, seventeen))
          .hasMessage("resource limit exceeded");
      assertThat(names(s, seventeen.substring(0, seventeen.length() - 3))).isEmpty();
      assertThatThrownBy(() -> s.search(Context.background(), USER, "é".repeat(129)))
          .as("258 UTF-8 bytes in 129 chars")
          .hasMessage("resource limit exceeded");
      assertThat(names(s, "é".repeat(128))).isEmpty();
    }
  }

  @Test
  void anExecuteTimeAuthorizerIsNeverAskedDuringDiscovery() throws CodeModeException {
    AtomicInteger asked = new AtomicInteger();
    Options options =
        Options.builder()
            .authorizer(
                (ctx, req) -> {
                  asked.incrementAndGet();
                  throw new dev.agentcompute.codemode.authz.AccessDenied();
                })
            .build();
    try (Server s = server(options, new Doc("a.thing", "Thing.", ""))) {
      assertThat(names(s, "thing")).containsExactly("a.thing");
      assertThat(s.describe(Context.background(), new Subject("anyone"), "a.thing").name())
          .isEqualTo("a.thing");
      assertThat(asked).hasValue(0);
    }
  }

  @Test
  void packingCountsGoHtmlEscapesInTheResponseBytes() throws CodeModeException {
    Builder b =
        CodeMode.builder(
            Options.builder()
                .authorizer(Authorizer.allowAll())
                .limits(Limits.unset().withMaxSearchResults(100))
                .build());
    // 500 '<' are 3,000 bytes as \u003c: each compact result is 3,061 bytes, so 21 fit (30 would
    // fit unescaped).
    String summary = "Widget " + "<".repeat(500) + ".";
    for (int i = 0; i < 30; i++) {
      b.register(
          Capability.named(
                  "w.op" + (char) ('a' + i / 26) + (char) ('a' + i % 26),
                  Empty.class,
                  StatusOut.class)
              .summary(summary)
              .handler((c, s, in) -> null));
    }
    try (Server s = b.build()) {
      SearchResponse r = s.search(Context.background(), USER, "widget");
      assertThat(r.results()).hasSize(21);
      assertThat(r.truncated()).isTrue();
    }
  }
}
