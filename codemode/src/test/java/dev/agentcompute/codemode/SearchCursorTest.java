package dev.agentcompute.codemode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.codemode.authz.AccessRequest;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** search_api cursors (docs/reference/policy.md#search-cursors, #tokens). */
class SearchCursorTest {

  static final Subject ALICE = new Subject("alice");
  static final Subject BOB = new Subject("bob");
  static final Tokens TOKENS = Tokens.random();
  static final TestClock CLOCK = new TestClock();
  static final AtomicInteger REVISION = new AtomicInteger();
  static final AtomicInteger DISCOVERIES = new AtomicInteger();

  /** Discovery unrestricted; the scope key names the subject and a policy revision. */
  static final Policy POLICY =
      new Policy() {
        @Override
        public void authorize(Context ctx, AccessRequest request) {
          if (request.kind() == AccessRequest.Kind.DISCOVER) {
            DISCOVERIES.incrementAndGet();
          }
        }

        @Override
        public String scopeKey(Context ctx, Subject subject) {
          return subject.id() + "/" + REVISION.get();
        }
      };

  static Server paged;

  record Empty() {}

  static Builder catalogue(long maxResults, int extra) {
    Builder b =
        CodeMode.builder(
            Options.builder()
                .policy(POLICY)
                .tokens(TOKENS)
                .clock(CLOCK)
                .limits(Limits.unset().withMaxSearchResults(maxResults))
                .build());
    for (int i = 0; i < 23 + extra; i++) {
      b.register(
          Capability.named("records.op" + i, Empty.class, Empty.class)
              .summary("Record operation number " + i + ".")
              .handler((c, s, in) -> new Empty()));
    }
    return b;
  }

  @BeforeAll
  static void build() throws CodeModeException {
    paged = catalogue(5, 0).build();
  }

  @AfterAll
  static void close() {
    paged.close();
  }

  static SearchResponse page(Server s, Subject who, String query, String cursor)
      throws CodeModeException {
    return s.search(Context.background(), who, query, cursor);
  }

  static String invalid(Server s, Subject who, String query, String cursor) {
    try {
      page(s, who, query, cursor);
    } catch (CodeModeException e) {
      assertThat(e.failure()).isEqualTo(Failure.INVALID_CURSOR);
      return e.clientText();
    }
    throw new AssertionError("the cursor was accepted");
  }

  static String firstCursor() throws CodeModeException {
    return page(paged, ALICE, "record operation", null).nextCursor();
  }

  @Test
  void pagesNeitherRepeatNorSkipAndTheLastHasNoCursor() throws Exception {
    List<String> paging = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      SearchResponse r = page(paged, ALICE, "record operation", cursor);
      r.results().forEach(x -> paging.add(x.name()));
      assertThat(r.truncated()).isEqualTo(r.nextCursor() != null);
      cursor = r.nextCursor();
      pages++;
    } while (cursor != null);

    List<String> whole;
    try (Server all = catalogue(100, 0).build()) {
      whole =
          page(all, ALICE, "record operation", null).results().stream()
              .map(SearchResult::name)
              .toList();
    }
    assertThat(pages).isEqualTo(5);
    assertThat(paging).hasSize(23).doesNotHaveDuplicates().isEqualTo(whole);
  }

  @Test
  void aPageThatHoldsEveryCandidateHasNoCursor() throws Exception {
    SearchResponse r = page(paged, ALICE, "number 7", null);

    assertThat(r.results()).extracting(SearchResult::name).containsExactly("records.op7");
    assertThat(r.truncated()).isFalse();
    assertThat(r.nextCursor()).isNull();
  }

  @Test
  void everyPageAsksThePolicyAgain() throws Exception {
    String cursor = firstCursor();
    int before = DISCOVERIES.get();

    page(paged, ALICE, "record operation", cursor);

    assertThat(DISCOVERIES.get() - before).as("DISCOVER for every candidate").isEqualTo(23);
  }

  @Test
  void aCursorReplayedByAnotherSubjectIsInvalid() throws Exception {
    assertThat(invalid(paged, BOB, "record operation", firstCursor())).isEqualTo("invalid cursor");
  }

  @Test
  void aCursorIsInvalidOnceTheScopeKeyChanged() throws Exception {
    String cursor = firstCursor();
    REVISION.incrementAndGet();

    assertThat(invalid(paged, ALICE, "record operation", cursor)).isEqualTo("invalid cursor");
  }

  @Test
  void aCursorIsInvalidAfterACatalogueReload() throws Exception {
    String cursor = firstCursor();
    try (Server reloaded = catalogue(5, 1).build()) {
      assertThat(invalid(reloaded, ALICE, "record operation", cursor)).isEqualTo("invalid cursor");
    }
  }

  @Test
  void anotherInstanceWithTheSameCatalogueAndSecretResumesTheCursor() throws Exception {
    String cursor = firstCursor();
    try (Server twin = catalogue(5, 0).build()) {
      assertThat(page(twin, ALICE, "record operation", cursor).results()).hasSize(5);
    }
  }

  @Test
  void aTamperedCursorIsInvalid() throws Exception {
    String cursor = firstCursor();
    String tampered =
        cursor.substring(0, cursor.length() - 2) + (cursor.endsWith("A") ? "BB" : "AA");

    assertThat(invalid(paged, ALICE, "record operation", tampered)).isEqualTo("invalid cursor");
  }

  @Test
  void anExpiredCursorIsInvalid() throws Exception {
    String cursor = firstCursor();
    CLOCK.advance(Duration.ofMinutes(10));

    assertThat(invalid(paged, ALICE, "record operation", cursor)).isEqualTo("invalid cursor");
  }

  @Test
  void aCursorOfAnotherQueryIsInvalid() throws Exception {
    assertThat(invalid(paged, ALICE, "record number", firstCursor())).isEqualTo("invalid cursor");
  }

  @Test
  void anEmptyCursorIsTheFirstPage() throws Exception {
    assertThat(page(paged, ALICE, "record operation", "").results())
        .isEqualTo(page(paged, ALICE, "record operation", null).results());
  }

  @Test
  void theQueryBoundsAreCheckedBeforeTheCursor() {
    assertThatThrownBy(() -> page(paged, ALICE, "x".repeat(300), "garbage"))
        .hasMessage("resource limit exceeded");
  }
}
