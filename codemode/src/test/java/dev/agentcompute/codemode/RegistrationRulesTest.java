package dev.agentcompute.codemode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.codemode.Fixtures.Empty;
import dev.agentcompute.codemode.Fixtures.StatusOut;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * Registration and build rules of docs/reference/codemode.md (#registration, #builder, #binding,
 * #limits: R3-R5, R9, R12-R18, R24, R70-R72) not covered by RegistrationTest.
 */
class RegistrationRulesTest {

  static final Subject USER = new Subject("u");

  private static String buildFailure(Options options, Capability<?, ?>... caps) {
    Builder b = CodeMode.builder(options);
    for (Capability<?, ?> c : caps) {
      b.register(c);
    }
    try {
      b.build().close();
    } catch (CodeModeException e) {
      assertThat(e.failure()).isEqualTo(Failure.INVALID_REGISTRATION);
      return e.getMessage();
    }
    throw new AssertionError("build succeeded");
  }

  private static String buildFailure(Capability<?, ?>... caps) {
    return buildFailure(Fixtures.allowAll(), caps);
  }

  private static Capability<Empty, StatusOut> named(String name) {
    return Capability.named(name, Empty.class, StatusOut.class)
        .summary("Summary.")
        .handler((c, s, i) -> new StatusOut("ok"));
  }

  private static <I extends Record, O extends Record> Capability<I, O> typed(
      String name, Class<I> in, Class<O> out) {
    return Capability.named(name, in, out).summary("s").handler((c, s, i) -> null);
  }

  @Test
  void everyReservedRootIsRejected() {
    List<String> roots =
        List.of(
            "None",
            "True",
            "False",
            "abs",
            "all",
            "any",
            "bool",
            "bytes",
            "chr",
            "dict",
            "dir",
            "enumerate",
            "fail",
            "float",
            "getattr",
            "hasattr",
            "hash",
            "int",
            "len",
            "list",
            "max",
            "min",
            "ord",
            "print",
            "range",
            "repr",
            "reversed",
            "set",
            "sorted",
            "str",
            "tuple",
            "type",
            "zip",
            "sum",
            "json",
            "math");
    Capability<?, ?>[] caps = roots.stream().map(r -> named(r + ".x")).toArray(Capability[]::new);
    String message = buildFailure(caps);
    for (String root : roots) {
      assertThat(message).contains("capability \"" + root + ".x\":");
    }
    assertThat(message.lines()).hasSize(roots.size());
  }

  @Test
  void nameSegmentsAreUnicodeIdentifiers() throws CodeModeException {
    String message =
        buildFailure(named("a.1b"), named("a..b"), named("a.b."), named("for.x"), named("a.b c"));
    assertThat(message)
        .contains("capability \"a.1b\"")
        .contains("capability \"a..b\"")
        .contains("capability \"a.b.\"")
        .contains("capability \"for.x\"")
        .contains("capability \"a.b c\"");
    try (Server s =
        CodeMode.builder(Fixtures.allowAll())
            .register(named("données.état_2"))
            .register(named("_x.y9"))
            .build()) {
      assertThat(s.describe(Context.background(), USER, "données.état_2").signature())
          .isEqualTo("données.état_2()");
    }
  }

  @Test
  void idsAreTrimmedAndUniqueEvenWhenDisabled() {
    var nbsp =
        Capability.named("a.b", Empty.class, StatusOut.class)
            .id("\u00a0id")
            .summary("s")
            .handler((c, s, i) -> null);
    var first =
        Capability.named("a.c", Empty.class, StatusOut.class)
            .id("same")
            .summary("s")
            .handler((c, s, i) -> null);
    var second =
        Capability.named("a.d", Empty.class, StatusOut.class)
            .id("same")
            .summary("s")
            .handler((c, s, i) -> null);
    String message =
        buildFailure(
            Options.builder().policy(Policy.allowRegistered()).disable("same").build(),
            nbsp,
            first,
            second);
    assertThat(message)
        .contains("capability \"a.b\": id \"\\u00a0id\" must not have surrounding whitespace")
        .contains("duplicate capability id \"same\"");
  }

  @Test
  void searchTermsAreCheckedClonedAndDiscoveryOnly() throws CodeModeException {
    var empty =
        Capability.named("a.b", Empty.class, StatusOut.class)
            .summary("s")
            .searchTerms("ok", "")
            .handler((c, s, i) -> null);
    var padded =
        Capability.named("a.c", Empty.class, StatusOut.class)
            .summary("s")
            .searchTerms("ok ")
            .handler((c, s, i) -> null);
    assertThat(buildFailure(empty, padded))
        .contains("capability \"a.b\": search terms must not be empty")
        .contains("capability \"a.c\": search term \"ok \" must not have surrounding whitespace");

    String[] terms = {"zebra crossing"};
    var cap =
        Capability.named("road.sign", Empty.class, StatusOut.class)
            .summary("Road sign.")
            .searchTerms(terms)
            .handler((c, s, i) -> new StatusOut("ok"));
    terms[0] = "mutated";
    try (Server s = CodeMode.builder(Fixtures.allowAll()).register(cap).build()) {
      assertThat(s.search(Context.background(), USER, "zebra").results())
          .extracting(SearchResult::name)
          .containsExactly("road.sign");
      assertThat(s.search(Context.background(), USER, "mutated").results()).isEmpty();
      assertThat(s.search(Context.background(), USER, "zebra").results().getFirst().toString())
          .doesNotContain("zebra");
      Description d = s.describe(Context.background(), USER, "road.sign");
      assertThat(d.toString()).doesNotContain("zebra");
      assertThatThrownBy(() -> s.describe(Context.background(), USER, "zebra crossing"))
          .hasMessage("capability not found");
    }
  }

  @Test
  void optionsAreCopiedWhenMade() throws CodeModeException {
    List<String> disabled = new ArrayList<>(List.of("health.entry.status"));
    Options options = new Options(Policy.allowRegistered(), disabled, Limits.unset());
    disabled.clear();
    disabled.add("unknown.id");
    try (Server s =
        CodeMode.builder(options).register(Fixtures.lookup()).register(Fixtures.status()).build()) {
      assertThatThrownBy(() -> s.describe(Context.background(), USER, "health.status"))
          .hasMessage("capability not found");
    }
  }

  @Test
  void everyFailureIsPrefixedOnceAndTheMetadataBudgetCountsAllRegistrations() {
    String description = "d".repeat(8200);
    Builder b = CodeMode.builder(Fixtures.allowAll());
    for (int i = 0; i < 4096; i++) {
      b.register(
          Capability.named("m.c" + i, Empty.class, StatusOut.class)
              .summary("s")
              .description(description)
              .handler((c, s, in) -> null));
    }
    assertThatThrownBy(b::build)
        .isInstanceOfSatisfying(
            CodeModeException.class,
            e -> {
              assertThat(e.getMessage())
                  .startsWith("invalid registration: searchable metadata of ")
                  .contains("exceeds the build budget of 33554432 bytes");
              assertThat(e.getMessage())
                  .doesNotContain("invalid registration: invalid registration");
            });
  }

  @Test
  void aSearchResultThatCannotFitTheResponseFailsTheBuild() {
    var huge =
        Capability.named("big.one", Empty.class, StatusOut.class)
            .summary("x".repeat(65_500))
            .handler((c, s, i) -> null);
    assertThat(buildFailure(huge))
        .contains("capability \"big.one\": search result of ")
        .contains("cannot fit the structured response cap");
  }

  @Test
  void frameCapsMustFit32Bits() {
    Limits l = Limits.unset().withMaxValueBytes((1L << 32) - 64);
    assertThat(
            buildFailure(
                Options.builder().policy(Policy.allowRegistered()).limits(l).build(),
                Fixtures.lookup()))
        .isEqualTo(
            "invalid registration: worker frame caps do not fit 32 bits; lower MaxValueBytes or MaxSourceBytes");
  }

  @Test
  void defaultsAreTheOriginalsAndZeroNeverMeansUnlimited() {
    Limits d = Limits.defaults();
    assertThat(d)
        .isEqualTo(
            new Limits(
                65_536,
                1_000_000,
                Duration.ofSeconds(5),
                100,
                32,
                1_048_576,
                8_388_608,
                256,
                20,
                8,
                128L << 20,
                1,
                4,
                Duration.ofSeconds(30),
                Duration.ofSeconds(120),
                Duration.ofSeconds(60)));
    assertThat(Limits.unset().withMaxValueDepth(0).resolve().maxValueDepth()).isEqualTo(32);
    assertThatThrownBy(() -> Limits.unset().withMaxValueDepth(-1).resolve().validate())
        .hasMessage("invalid registration: MaxValueDepth must be positive");
  }

  @Test
  void sentinelTexts() {
    assertThat(List.of(Failure.values()))
        .extracting(Failure::text)
        .containsExactly(
            "invalid registration",
            "unauthenticated",
            "capability not found",
            "invalid program",
            "invalid capability arguments",
            "permission denied",
            "authorization policy failure",
            "resource limit exceeded",
            "capability failed",
            "internal failure",
            "context canceled",
            "invalid cursor",
            "invalid confirmation",
            "confirmation required",
            "confirmation declined",
            "Resource not found",
            "resource not readable");
    assertThat(new dev.agentcompute.codemode.authz.AccessDenied().getMessage())
        .isEqualTo("authorization denied");
    assertThat(CodeModeException.deadline().clientText()).isEqualTo("resource limit exceeded");
    assertThat(CodeModeException.deadline().deadlineExceeded()).isTrue();
  }

  record ArrayIn(String[] xs) {}

  record EnumIn(java.util.concurrent.TimeUnit unit) {}

  record BigIn(BigInteger n) {}

  record InstantIn(Instant at) {}

  record NestedOptional(Optional<Optional<String>> x) {}

  record InterfaceIn(CharSequence s) {}

  record AnyOut(Object value) {}

  record ArrayOut(long[] xs) {}

  record MapKeysOut(Map<Long, String> m) {}

  record BadNestedName(@StarlarkName("a,b") String x) {}

  record Holder(BadNestedName inner) {}

  record EmptyName(@StarlarkName("") String x) {}

  @Test
  void unsupportedInputAndOutputTypesAreNamed() {
    String message =
        buildFailure(
            typed("t.a", ArrayIn.class, StatusOut.class),
            typed("t.b", EnumIn.class, StatusOut.class),
            typed("t.c", BigIn.class, StatusOut.class),
            typed("t.d", InstantIn.class, StatusOut.class),
            typed("t.e", NestedOptional.class, StatusOut.class),
            typed("t.f", InterfaceIn.class, StatusOut.class),
            typed("t.g", Empty.class, AnyOut.class),
            typed("t.h", Empty.class, ArrayOut.class),
            typed("t.i", Empty.class, MapKeysOut.class),
            typed("t.j", Holder.class, StatusOut.class),
            typed("t.k", Empty.class, BadNestedName.class),
            typed("t.l", EmptyName.class, StatusOut.class));
    for (String c :
        List.of(
            "t.a\": input:",
            "t.b\": input:",
            "t.c\": input:",
            "t.d\": input:",
            "t.e\": input:",
            "t.f\": input:",
            "t.g\": output:",
            "t.h\": output:",
            "t.i\": output:",
            "t.j\": input:",
            "t.k\": output:",
            "t.l\": input:")) {
      assertThat(message).contains("capability \"" + c);
    }
    assertThat(message)
        .contains("optional may not wrap optional")
        .contains("map keys must be String");
  }

  record Narrow(
      int i,
      short s,
      @Unsigned short us,
      byte b,
      float f,
      Boolean flag,
      Long boxed,
      OptionalInt oi,
      @Nullable String maybe,
      Optional<Boolean> ob) {}

  record DashOut(@StarlarkName("until-day") String untilDay, @StarlarkName("from") String from) {}

  @Test
  void supportedJavaTypesHaveTheirNotation() throws CodeModeException {
    try (Server s =
        CodeMode.builder(Fixtures.allowAll())
            .register(typed("t.narrow", Narrow.class, DashOut.class))
            .build()) {
      Description d = s.describe(Context.background(), USER, "t.narrow");
      assertThat(d.signature())
          .isEqualTo(
              "t.narrow(*, i: int, s: int, us: int, b: int, f: float, flag: bool, boxed: int, "
                  + "oi: int | None, maybe: str | None, ob: bool | None)");
      assertThat(d.input()).filteredOn(FieldShape::required).hasSize(7);
      assertThat(d.output())
          .containsExactly(
              new FieldShape("until-day", "str", true), new FieldShape("from", "str", true));
    }
  }

  @Test
  void emptyShapesAreEmptyListsNeverNull() throws CodeModeException {
    try (Server s =
        CodeMode.builder(Fixtures.allowAll())
            .register(
                Capability.named("t.none", Empty.class, Empty.class)
                    .summary("s")
                    .handler((c, x, i) -> new Empty()))
            .build()) {
      Description d = s.describe(Context.background(), USER, "t.none");
      assertThat(d.input()).isNotNull().isEmpty();
      assertThat(d.output()).isNotNull().isEmpty();
      assertThat(d.signature()).isEqualTo("t.none()");
    }
  }
}
