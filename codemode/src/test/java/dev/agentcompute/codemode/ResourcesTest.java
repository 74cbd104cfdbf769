package dev.agentcompute.codemode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.codemode.authz.AccessDenied;
import dev.agentcompute.codemode.authz.ResourcePolicy;
import dev.agentcompute.codemode.authz.Subject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** MCP resources through the CodeMode API (docs/reference/policy.md#resources). */
class ResourcesTest {

  static final Subject ALICE = new Subject("alice");
  static final Subject BOB = new Subject("bob");

  final Set<String> hidden = ConcurrentHashMap.newKeySet();
  final Set<String> unreadable = ConcurrentHashMap.newKeySet();
  final Set<String> undiscoverable = ConcurrentHashMap.newKeySet();

  /** Revokes an item while its body is being read: between the two checks. */
  final Set<String> hideWhileReading = ConcurrentHashMap.newKeySet();

  final Set<String> denyReadWhileReading = ConcurrentHashMap.newKeySet();
  final AtomicInteger revision = new AtomicInteger();
  final TestClock clock = new TestClock();
  final Tokens tokens = Tokens.random();
  volatile boolean broken;
  Resources resources;

  final ResourcePolicy policy =
      new ResourcePolicy() {
        @Override
        public void discover(Context ctx, Subject subject, ResourceDescription d)
            throws AccessDenied {
          if (undiscoverable.contains(d.name())) {
            throw new AccessDenied();
          }
        }

        @Override
        public void visible(Context ctx, Subject subject, ResourceItem item) throws Exception {
          if (broken) {
            throw new Exception("policy backend down");
          }
          if (hidden.contains(item.uri())) {
            throw new AccessDenied();
          }
        }

        @Override
        public void read(Context ctx, Subject subject, ResourceItem item) throws AccessDenied {
          if (unreadable.contains(item.uri())) {
            throw new AccessDenied();
          }
        }

        @Override
        public String scopeKey(Context ctx, Subject subject) {
          return subject.id() + "/" + revision.get();
        }
      };

  static final ResourceDescription STATUS =
      ResourceDescription.resource("records://status", "status").withMimeType("application/json");
  static final ResourceDescription ENTRY =
      ResourceDescription.template("records://entries/{key}", "entry")
          .withMimeType("application/json");
  static final ResourceDescription BUNDLE =
      ResourceDescription.template("records://bundles/{name}", "bundle");

  ResourceBody body(ResourceItem item) {
    if (hideWhileReading.contains(item.uri())) {
      hidden.add(item.uri());
    }
    if (denyReadWhileReading.contains(item.uri())) {
      unreadable.add(item.uri());
    }
    return ResourceBody.text("{\"uri\":\"" + item.uri() + "\"}");
  }

  Resources.Builder registrations(int entries) {
    List<ResourceItem> listed = new ArrayList<>();
    for (int i = 0; i < entries; i++) {
      String key = String.format("e%03d", i);
      listed.add(ResourceItem.of(ENTRY, "records://entries/" + key, key));
    }
    return Resources.builder(policy)
        .tokens(tokens)
        .clock(clock)
        .resource(STATUS, (ctx, s, item) -> body(item))
        .template(ENTRY, (ctx, s) -> listed, (ctx, s, item) -> body(item))
        .source(bundles());
  }

  /** records://bundles/{name} reads as three parts. */
  ResourceSource bundles() {
    return new ResourceSource() {
      @Override
      public ResourceDescription description() {
        return BUNDLE;
      }

      @Override
      public List<ResourceItem> list(Context ctx, Subject subject) {
        return List.of();
      }

      @Override
      public List<ResourceItem> resolve(Context ctx, Subject subject, String uri) {
        if (!uri.startsWith("records://bundles/")) {
          return List.of();
        }
        List<ResourceItem> parts = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
          parts.add(
              new ResourceItem(
                  uri + "/part" + i, "part" + i, "", "", "", BUNDLE, java.util.Map.of()));
        }
        return parts;
      }

      @Override
      public ResourceBody read(Context ctx, Subject subject, ResourceItem item) {
        return body(item);
      }
    };
  }

  @BeforeEach
  void build() throws CodeModeException {
    resources = registrations(120).build();
  }

  ResourcePage list(Subject who, String cursor) throws CodeModeException {
    return resources.list(Context.background(), who, cursor);
  }

  ResourceRead read(String uri) throws CodeModeException {
    return resources.read(Context.background(), ALICE, uri);
  }

  static Failure failureOf(ThrowingCall call) {
    try {
      call.run();
    } catch (CodeModeException e) {
      return e.failure();
    }
    throw new AssertionError("succeeded");
  }

  interface ThrowingCall {
    void run() throws CodeModeException;
  }

  static List<String> uris(ResourceRead r) {
    return r.contents().stream().map(c -> c.item().uri()).toList();
  }

  @Test
  void theListIsInUriOrderFiftyToAPage() throws Exception {
    List<String> all = new ArrayList<>();
    List<Integer> sizes = new ArrayList<>();
    String cursor = null;
    do {
      ResourcePage p = list(ALICE, cursor);
      p.items().forEach(i -> all.add(i.uri()));
      sizes.add(p.items().size());
      cursor = p.nextCursor();
    } while (cursor != null);

    assertThat(sizes).containsExactly(50, 50, 21);
    assertThat(all).doesNotHaveDuplicates().isSorted().hasSize(121).contains("records://status");
  }

  @Test
  void anItemAppearsOnlyWhenVisibleAskedPerCall() throws Exception {
    hidden.add("records://entries/e001");

    assertThat(list(ALICE, null).items())
        .extracting(ResourceItem::uri)
        .doesNotContain("records://entries/e001")
        .contains("records://entries/e002");
    hidden.clear();
    assertThat(list(ALICE, null).items())
        .extracting(ResourceItem::uri)
        .contains("records://entries/e001");
  }

  @Test
  void anUndiscoverableTemplateListsNoItemAndIsNotAmongTheTemplates() throws Exception {
    undiscoverable.add("entry");

    assertThat(list(ALICE, null).items())
        .extracting(ResourceItem::uri)
        .containsExactly("records://status");
    assertThat(resources.templates(Context.background(), ALICE)).containsExactly(BUNDLE);
    assertThat(failureOf(() -> read("records://entries/e001")))
        .isEqualTo(Failure.RESOURCE_NOT_FOUND);
  }

  @Test
  void templatesAreListed() throws Exception {
    assertThat(resources.templates(Context.background(), ALICE)).containsExactly(ENTRY, BUNDLE);
  }

  @Test
  void aListCursorReplayedByAnotherSubjectIsInvalid() throws Exception {
    String cursor = list(ALICE, null).nextCursor();

    assertThat(failureOf(() -> list(BOB, cursor))).isEqualTo(Failure.INVALID_CURSOR);
  }

  @Test
  void aListCursorIsInvalidOnceTheScopeKeyChanged() throws Exception {
    String cursor = list(ALICE, null).nextCursor();
    revision.incrementAndGet();

    assertThat(failureOf(() -> list(ALICE, cursor))).isEqualTo(Failure.INVALID_CURSOR);
  }

  @Test
  void aListCursorIsInvalidAfterTheRegistrationsChanged() throws Exception {
    String cursor = list(ALICE, null).nextCursor();
    Resources reloaded =
        registrations(120)
            .resource(ResourceDescription.resource("records://more", "more"), (c, s, i) -> body(i))
            .build();

    assertThat(failureOf(() -> reloaded.list(Context.background(), ALICE, cursor)))
        .isEqualTo(Failure.INVALID_CURSOR);
  }

  @Test
  void aTamperedListCursorIsInvalid() throws Exception {
    String cursor = list(ALICE, null).nextCursor();

    assertThat(failureOf(() -> list(ALICE, cursor + "x"))).isEqualTo(Failure.INVALID_CURSOR);
  }

  @Test
  void anExpiredListCursorIsInvalid() throws Exception {
    String cursor = list(ALICE, null).nextCursor();
    clock.advance(Duration.ofMinutes(10));

    assertThat(failureOf(() -> list(ALICE, cursor))).isEqualTo(Failure.INVALID_CURSOR);
  }

  @Test
  void aReadReturnsTheBody() throws Exception {
    ResourceRead r = read("records://entries/e007");

    assertThat(r.contents()).hasSize(1);
    assertThat(r.contents().getFirst().body())
        .isEqualTo(ResourceBody.text("{\"uri\":\"records://entries/e007\"}"));
    assertThat(r.contents().getFirst().item().variables()).containsEntry("key", "e007");
    assertThat(r.warnings()).isEmpty();
  }

  @Test
  void anUnknownAndAHiddenResourceReadTheSame() {
    hidden.add("records://entries/e001");

    assertThat(failureOf(() -> read("records://nope"))).isEqualTo(Failure.RESOURCE_NOT_FOUND);
    assertThat(failureOf(() -> read("records://entries/e001")))
        .isEqualTo(Failure.RESOURCE_NOT_FOUND);
  }

  @Test
  void aVisibleResourceThatMayNotBeReadIsNotReadable() {
    unreadable.add("records://status");

    assertThat(failureOf(() -> read("records://status"))).isEqualTo(Failure.RESOURCE_NOT_READABLE);
  }

  @Test
  void aReadOfSeveralItemsLeavesADeniedOneOutWithAWarningAndAHiddenOneSilently() throws Exception {
    unreadable.add("records://bundles/x/part2");
    hidden.add("records://bundles/x/part3");

    ResourceRead r = read("records://bundles/x");

    assertThat(uris(r)).containsExactly("records://bundles/x/part1");
    assertThat(r.warnings()).containsExactly("records://bundles/x/part2: read denied");
  }

  @Test
  void anItemHiddenBetweenTheTwoChecksIsDroppedSilently() throws Exception {
    hideWhileReading.add("records://bundles/x/part1");

    ResourceRead r = read("records://bundles/x");

    assertThat(uris(r)).containsExactly("records://bundles/x/part2", "records://bundles/x/part3");
    assertThat(r.warnings()).isEmpty();
  }

  @Test
  void anItemWhoseReadIsRevokedBetweenTheTwoChecksIsDroppedWithAWarning() throws Exception {
    denyReadWhileReading.add("records://bundles/x/part3");

    ResourceRead r = read("records://bundles/x");

    assertThat(uris(r)).containsExactly("records://bundles/x/part1", "records://bundles/x/part2");
    assertThat(r.warnings()).containsExactly("records://bundles/x/part3: read denied");
  }

  @Test
  void aSingleItemRevokedBetweenTheChecksIsNotDelivered() {
    hideWhileReading.add("records://entries/e001");
    denyReadWhileReading.add("records://entries/e002");

    assertThat(failureOf(() -> read("records://entries/e001")))
        .isEqualTo(Failure.RESOURCE_NOT_FOUND);
    assertThat(failureOf(() -> read("records://entries/e002")))
        .isEqualTo(Failure.RESOURCE_NOT_READABLE);
  }

  @Test
  void aPolicyFailureFailsTheRequestClosed() {
    broken = true;

    assertThat(failureOf(() -> list(ALICE, null))).isEqualTo(Failure.POLICY_FAILURE);
    assertThat(failureOf(() -> read("records://status"))).isEqualTo(Failure.POLICY_FAILURE);
  }

  @Test
  void registrationsAreValidated() {
    assertThatThrownBy(
            () ->
                Resources.builder(policy)
                    .resource(STATUS, (c, s, i) -> null)
                    .resource(STATUS, (c, s, i) -> null)
                    .build())
        .hasMessageContaining("resource records://status is registered more than once");
    assertThatThrownBy(
            () ->
                ResourceSource.template(
                    ResourceDescription.template("x://{a", "t"),
                    (c, s) -> List.of(),
                    (c, s, i) -> null))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
