package dev.agentcompute.codemode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.codemode.Fixtures.Empty;
import dev.agentcompute.codemode.Fixtures.LookupIn;
import dev.agentcompute.codemode.Fixtures.LookupOut;
import dev.agentcompute.codemode.Fixtures.StatusOut;
import dev.agentcompute.codemode.authz.Policy;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RegistrationTest {

  private static CodeModeException buildFailure(Options options, Capability<?, ?>... caps) {
    Builder b = CodeMode.builder(options);
    for (Capability<?, ?> c : caps) {
      b.register(c);
    }
    try {
      b.build().close();
    } catch (CodeModeException e) {
      return e;
    }
    throw new AssertionError("build succeeded");
  }

  private static Capability<Empty, StatusOut> named(String name) {
    return Capability.named(name, Empty.class, StatusOut.class)
        .summary("Summary.")
        .handler((c, s, i) -> new StatusOut("ok"));
  }

  @Test
  void namesMustBeDottedIdentifiersOutsideReservedRoots() {
    CodeModeException e =
        buildFailure(
            Fixtures.allowAll(),
            named("single"),
            named("a.b-c"),
            named("len.x"),
            named("json.decode"),
            named("records.if"),
            named("a\u0661.b"));
    assertThat(e.failure()).isEqualTo(Failure.INVALID_REGISTRATION);
    assertThat(e.getMessage())
        .contains("capability \"single\": name \"single\" must have at least two dotted segments")
        .contains("capability \"a.b-c\"")
        .contains("reserved root \"len\"")
        .contains("reserved root \"json\"")
        .contains("capability \"records.if\"")
        .contains("capability \"a\u0661.b\"");
    assertThat(e.getMessage().lines())
        .allMatch(l -> l.startsWith("invalid registration: capability "));
  }

  @Test
  void nestedReservedLeavesAndTimeRootAreLegal() throws CodeModeException {
    try (Server s =
        CodeMode.builder(Fixtures.allowAll())
            .register(named("stats.sum"))
            .register(named("records.len"))
            .register(named("time.now"))
            .build()) {
      assertThat(s.limits()).isEqualTo(Limits.defaults());
    }
  }

  @Test
  void metadataRules() {
    var noSummary =
        Capability.named("a.b", Empty.class, StatusOut.class).handler((c, s, i) -> null);
    var padded =
        Capability.named("a.c", Empty.class, StatusOut.class)
            .summary(" x")
            .handler((c, s, i) -> null);
    var badId =
        Capability.named("a.d", Empty.class, StatusOut.class)
            .id("id ")
            .summary("x")
            .handler((c, s, i) -> null);
    var badDesc =
        Capability.named("a.e", Empty.class, StatusOut.class)
            .summary("x")
            .description("y\n")
            .handler((c, s, i) -> null);
    var noHandler =
        Capability.named("a.f", Empty.class, StatusOut.class).summary("x").handler(null);
    var terms =
        Capability.named("a.g", Empty.class, StatusOut.class)
            .summary("x")
            .searchTerms(
                "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15",
                "16", "17")
            .handler((c, s, i) -> null);
    var bigTerms =
        Capability.named("a.h", Empty.class, StatusOut.class)
            .summary("x")
            .searchTerms("x".repeat(600), "y".repeat(425))
            .handler((c, s, i) -> null);
    CodeModeException e =
        buildFailure(
            Fixtures.allowAll(), noSummary, padded, badId, badDesc, noHandler, terms, bigTerms);
    assertThat(e.getMessage())
        .contains("capability \"a.b\": summary must not be empty")
        .contains("capability \"a.c\": summary must not have surrounding whitespace")
        .contains("capability \"a.d\": id \"id \" must not have surrounding whitespace")
        .contains("capability \"a.e\": description must not have surrounding whitespace")
        .contains(
            "capability \"a.f\": handler must not be null (finish the capability with .handler(...))")
        .contains("capability \"a.g\": at most 16 search terms")
        .contains("capability \"a.h\": search terms total 1025 bytes");
  }

  @Test
  void duplicatesCollisionsAndDisabledIds() {
    CodeModeException e =
        buildFailure(
            Options.builder()
                .policy(Policy.allowRegistered())
                .disable("nope", "x.y", "x.y")
                .build(),
            named("x.y"),
            named("x.y"),
            named("records.lookup"),
            named("records.lookup.detail"));
    assertThat(e.getMessage())
        .contains("duplicate capability id \"x.y\"")
        .contains("duplicate capability name \"x.y\"")
        .contains("namespace collision: \"records.lookup\"")
        .contains("disabled capability id \"nope\" does not match a registered capability")
        .contains("disabled capability id \"x.y\" is listed more than once");
  }

  @Test
  void missingPolicyAndNegativeLimitsAreReportedTogether() {
    Limits l = Limits.unset().withMaxNativeCalls(-1).withMaxExecutionTime(Duration.ofMillis(-5));
    CodeModeException e = buildFailure(new Options(null, List.of(), l), named("a.b"));
    assertThat(e.getMessage())
        .contains(
            "Options have no authorizer: set Options.builder().authorizer(...) or .policy(...)"
                + " (Authorizer.allowAll() allows every call); there is no default")
        .contains("MaxNativeCalls must be positive")
        .contains("MaxExecutionTime must be positive");
  }

  @Test
  void zeroLimitsTakeDefaultsAndValidateRejectsZero() {
    assertThat(Limits.unset().resolve()).isEqualTo(Limits.defaults());
    assertThat(Limits.unset().withSetting("maxSearchResults", "3").resolve().maxSearchResults())
        .isEqualTo(3);
    assertThatThrownBy(() -> Limits.unset().validate())
        .isInstanceOf(CodeModeException.class)
        .hasMessageContaining("MaxSourceBytes must be positive");
    assertThat(Limits.defaults().maxValueBytes()).isEqualTo(1_048_576);
    assertThat(Limits.defaults().maxIntermediateValueBytes()).isEqualTo(8_388_608);
    assertThat(Limits.defaults().maxExecutionsPerWorker()).isEqualTo(1);
    assertThatThrownBy(() -> Limits.unset().withSetting("MaxBogus", "1"))
        .hasMessageContaining("unknown limit 'MaxBogus'");
  }

  @Test
  void builderIsOneShot() throws CodeModeException {
    Builder b = CodeMode.builder(Fixtures.allowAll()).register(Fixtures.lookup());
    b.build().close();
    assertThatThrownBy(b::build)
        .isInstanceOf(CodeModeException.class)
        .hasMessage("invalid registration: builder is already closed");
    assertThatThrownBy(() -> b.register(Fixtures.status()))
        .isInstanceOf(IllegalStateException.class);
    Builder failing = CodeMode.builder(new Options(null, null, null));
    assertThatThrownBy(failing::build).isInstanceOf(CodeModeException.class);
    assertThatThrownBy(failing::build)
        .hasMessage("invalid registration: builder is already closed");
  }

  @Test
  void tooManyRegistrations() {
    Builder b = CodeMode.builder(Fixtures.allowAll());
    for (int i = 0; i < 4097; i++) {
      b.register(named("n.c" + i));
    }
    assertThatThrownBy(b::build)
        .hasMessageContaining("4097 registrations exceed the limit of 4096");
  }

  record BadRoot(@StarlarkName("not-ident") String x) {}

  record Keyword(@StarlarkName("from") String x) {}

  record BadType(Object x) {}

  record Cyclic(List<Cyclic> children) {}

  record IntKeys(java.util.Map<Integer, String> m) {}

  record OmitRequired(@OmitEmpty String x) {}

  record Dup(String x, @StarlarkName("x") String y) {}

  record Nested(Fixtures.Window w) {}

  @Test
  void typeRules() {
    CodeModeException e =
        buildFailure(
            Fixtures.allowAll(),
            Capability.named("t.a", BadRoot.class, StatusOut.class)
                .summary("s")
                .handler((c, s, i) -> null),
            Capability.named("t.b", Keyword.class, StatusOut.class)
                .summary("s")
                .handler((c, s, i) -> null),
            Capability.named("t.c", BadType.class, StatusOut.class)
                .summary("s")
                .handler((c, s, i) -> null),
            Capability.named("t.d", Cyclic.class, StatusOut.class)
                .summary("s")
                .handler((c, s, i) -> null),
            Capability.named("t.e", IntKeys.class, StatusOut.class)
                .summary("s")
                .handler((c, s, i) -> null),
            Capability.named("t.f", OmitRequired.class, StatusOut.class)
                .summary("s")
                .handler((c, s, i) -> null),
            Capability.named("t.g", Empty.class, OmitRequired.class)
                .summary("s")
                .handler((c, s, i) -> null),
            Capability.named("t.h", Dup.class, StatusOut.class)
                .summary("s")
                .handler((c, s, i) -> null));
    assertThat(e.getMessage())
        .contains("capability \"t.a\": input: input field \"not-ident\"")
        .contains("capability \"t.b\": input: input field \"from\"")
        .contains("capability \"t.c\": input: BadType.x: unsupported type java.lang.Object")
        .contains("capability \"t.d\": input: cyclic type")
        .contains("capability \"t.e\": input: IntKeys.m: map keys must be String")
        .contains("required input \"x\" cannot use omitempty")
        .contains("output field \"x\" cannot use omitempty")
        .contains("duplicate field name \"x\"");
  }

  @Test
  void nestedInputNamesMayBeKeywordsOrJsonNames() throws CodeModeException {
    try (Server s =
        CodeMode.builder(Fixtures.allowAll())
            .register(
                Capability.named("t.nested", Nested.class, StatusOut.class)
                    .summary("s")
                    .handler((c, x, i) -> null))
            .build()) {
      assertThat(
              s.describe(
                      Context.background(),
                      new dev.agentcompute.codemode.authz.Subject("u"),
                      "t.nested")
                  .signature())
          .isEqualTo("t.nested(*, w: {from: str, \"until-day\": str})");
    }
  }

  record Stages(
      @OneOf({"up", "down"}) String until,
      @OneOf({"a\"b"}) java.util.Optional<String> mode,
      long n) {}

  record OneOfInt(@OneOf({"1"}) long n) {}

  record OneOfEmpty(@OneOf({}) String s) {}

  record OneOfNested(Inner w) {}

  record Inner(@OneOf({"x"}) String s) {}

  record OneOfOut(@OneOf({"x"}) String s) {}

  @Test
  void oneOfShowsTheValuesInTheSignatureAndKeepsTheShapeStr() throws CodeModeException {
    try (Server s =
        CodeMode.builder(Fixtures.allowAll())
            .register(
                Capability.named("t.wait", Stages.class, StatusOut.class)
                    .summary("s")
                    .handler((c, x, i) -> new StatusOut("ok")))
            .build()) {
      Description d =
          s.describe(
              Context.background(), new dev.agentcompute.codemode.authz.Subject("u"), "t.wait");
      assertThat(d.signature())
          .isEqualTo("t.wait(*, until: \"up\" | \"down\", mode: \"a\\\"b\" | None, n: int)");
      assertThat(d.input())
          .containsExactly(
              new FieldShape("until", "str", true),
              new FieldShape("mode", "str | None", false),
              new FieldShape("n", "int", true));
      assertThat(
              s.search(
                      Context.background(),
                      new dev.agentcompute.codemode.authz.Subject("u"),
                      "t.wait")
                  .results()
                  .getFirst()
                  .signature())
          .isEqualTo(d.signature());
    }
  }

  @Test
  void oneOfIsOnlyForRootStrInputsWithValues() {
    CodeModeException e =
        buildFailure(
            Fixtures.allowAll(),
            Capability.named("t.a", OneOfInt.class, StatusOut.class)
                .summary("s")
                .handler((c, s, i) -> null),
            Capability.named("t.b", OneOfEmpty.class, StatusOut.class)
                .summary("s")
                .handler((c, s, i) -> null),
            Capability.named("t.c", OneOfNested.class, StatusOut.class)
                .summary("s")
                .handler((c, s, i) -> null),
            Capability.named("t.d", Empty.class, OneOfOut.class)
                .summary("s")
                .handler((c, s, i) -> null));
    assertThat(e.getMessage())
        .contains(
            "capability \"t.a\": input: \"n\" (OneOfInt.n) cannot use oneof: only root str inputs"
                + " list their values")
        .contains("capability \"t.b\": input: \"s\" (OneOfEmpty.s) cannot use oneof without values")
        .contains("capability \"t.c\": input: \"s\" (Inner.s) cannot use oneof")
        .contains("capability \"t.d\": output: \"s\" (OneOfOut.s) cannot use oneof");
  }

  @Test
  void capabilityDefaults() {
    Capability<LookupIn, LookupOut> c =
        Capability.named("records.lookup", LookupIn.class, LookupOut.class)
            .summary("s")
            .handler((x, s, i) -> null);
    assertThat(c.effectiveId()).isEqualTo("records.lookup");
  }
}
