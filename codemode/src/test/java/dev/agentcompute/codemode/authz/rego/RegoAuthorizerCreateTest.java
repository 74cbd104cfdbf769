package dev.agentcompute.codemode.authz.rego;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Failure;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The constructor contract of docs/reference/rego.md#codemode-authorizer, rule by rule. */
class RegoAuthorizerCreateTest {

  private static final Context CTX = Context.background();

  @Test
  void aValidDecisionAndModuleCompile() throws Exception {
    RegoAuthorizer a = RegoAuthorizer.create(CTX, Policies.ALLOW, Policies.modules());
    assertThat(a.decision()).isEqualTo(Policies.ALLOW);
    assertThat(a.files()).containsExactly("authz.rego");
  }

  @Test
  void surroundingWhitespaceOnTheDecisionIsAccepted() throws Exception {
    RegoAuthorizer a = RegoAuthorizer.create(CTX, "  " + Policies.ALLOW + "\n", Policies.modules());
    a.authorize(CTX, Policies.execute("alice", "k"));
  }

  @Test
  void aBracketedGroundReferenceIsAccepted() throws Exception {
    RegoAuthorizer.create(CTX, "data[\"codemode\"].authz[\"allow\"]", Policies.modules())
        .authorize(CTX, Policies.execute("alice", "k"));
  }

  @Test
  void aDecisionThatIsNotAReferenceIsRejected() {
    assertThatThrownBy(
            () -> RegoAuthorizer.create(CTX, "data.codemode.authz.allow(", Policies.modules()))
        .isInstanceOf(RegoPolicyError.class)
        .hasMessageStartingWith("rego: invalid decision");
  }

  @Test
  void aNonGroundDecisionIsRejected() {
    assertThatThrownBy(
            () -> RegoAuthorizer.create(CTX, "data.codemode.authz[x]", Policies.modules()))
        .isInstanceOf(RegoPolicyError.class)
        .hasMessageContaining("not ground");
  }

  @Test
  void aDecisionOutsideDataIsRejected() {
    assertThatThrownBy(() -> RegoAuthorizer.create(CTX, "input.allow", Policies.modules()))
        .isInstanceOf(RegoPolicyError.class)
        .hasMessageContaining("not a reference to a document under data");
  }

  @Test
  void noModulesAreRejected() {
    assertThatThrownBy(() -> RegoAuthorizer.create(CTX, Policies.ALLOW, Map.of()))
        .isInstanceOf(RegoPolicyError.class)
        .hasMessage("rego: at least one module is required");
  }

  @Test
  void aBlankFileNameIsRejected() {
    assertThatThrownBy(
            () -> RegoAuthorizer.create(CTX, Policies.ALLOW, Map.of("  ", Policies.AUTHZ)))
        .isInstanceOf(RegoPolicyError.class)
        .hasMessage("rego: module file names must not be blank");
  }

  @Test
  void invalidRegoIsRejectedWithItsPosition() {
    assertThatThrownBy(
            () ->
                RegoAuthorizer.create(
                    CTX, Policies.ALLOW, Map.of("bad.rego", "package p\n\nallow if {\n")))
        .isInstanceOf(RegoPolicyError.class)
        .hasMessageStartingWith("rego: bad.rego:")
        .hasMessageContaining("rego_parse_error");
  }

  @Test
  void anUnsafeVariableIsRejectedWithItsPosition() {
    assertThatThrownBy(
            () ->
                RegoAuthorizer.create(
                    CTX, "data.p.allow", Map.of("p.rego", "package p\nallow if x > 1\n")))
        .isInstanceOf(RegoPolicyError.class)
        .hasMessage("rego: p.rego:2:10: rego_unsafe_var_error: var x is unsafe");
  }

  @Test
  void aPolicyUsingAnUnavailableBuiltinIsRejectedNamingIt() {
    String src = "package p\nallow if http.send({\"method\": \"get\", \"url\": \"http://x\"})\n";
    assertThatThrownBy(() -> RegoAuthorizer.create(CTX, "data.p.allow", Map.of("p.rego", src)))
        .isInstanceOf(RegoPolicyError.class)
        .hasMessageContaining("undefined function http.send")
        .hasMessageContaining("nondeterministic");
  }

  @Test
  void aPolicyUsingTimeIsRejected() {
    String src = "package p\nallow if time.now_ns() > 0\n";
    assertThatThrownBy(() -> RegoAuthorizer.create(CTX, "data.p.allow", Map.of("p.rego", src)))
        .hasMessageContaining("undefined function time.now_ns");
  }

  @Test
  void aCanceledContextIsRejectedWithItsError() {
    Context ctx = CTX.withCancel();
    ctx.cancel();
    assertThatThrownBy(() -> RegoAuthorizer.create(ctx, Policies.ALLOW, Policies.modules()))
        .isInstanceOfSatisfying(
            CodeModeException.class, e -> assertThat(e.failure()).isEqualTo(Failure.CANCELED));
  }

  @Test
  void cancellationWinsOverAnInvalidPolicy() {
    Context ctx = CTX.withCancel();
    ctx.cancel();
    assertThatThrownBy(
            () -> RegoAuthorizer.create(ctx, Policies.ALLOW, Map.of("bad.rego", "not rego")))
        .isInstanceOf(CodeModeException.class);
  }

  @Test
  void anExpiredContextIsRejectedAsItsDeadline() throws Exception {
    Context ctx = CTX.withTimeout(Duration.ZERO);
    ctx.done().get();
    assertThatThrownBy(() -> RegoAuthorizer.create(ctx, Policies.ALLOW, Policies.modules()))
        .isInstanceOfSatisfying(
            CodeModeException.class, e -> assertThat(e.deadlineExceeded()).isTrue());
  }

  @Test
  void aNullContextIsAnOrdinaryError() {
    assertThatThrownBy(() -> RegoAuthorizer.create(null, Policies.ALLOW, Policies.modules()))
        .isInstanceOf(RegoPolicyError.class);
  }

  @Test
  void fileNamesAreCompiledInSortedOrder() throws Exception {
    Map<String, String> files = new LinkedHashMap<>();
    files.put("z.rego", "package p\nallow if data.p.q\n");
    files.put("a.rego", "package p\nq := true\n");
    assertThat(RegoAuthorizer.create(CTX, "data.p.allow", files).files())
        .containsExactly("a.rego", "z.rego");
  }

  @Test
  void theDigestDependsOnlyOnDecisionNamesAndContents() throws Exception {
    Map<String, String> ordered = new LinkedHashMap<>();
    ordered.put("b.rego", "package p\nq := 1\n");
    ordered.put("a.rego", "package p\nallow := true\n");
    Map<String, String> reversed = new LinkedHashMap<>();
    reversed.put("a.rego", "package p\nallow := true\n");
    reversed.put("b.rego", "package p\nq := 1\n");
    String d1 = RegoAuthorizer.create(CTX, "data.p.allow", ordered).digest();
    assertThat(RegoAuthorizer.create(CTX, "data.p.allow", reversed).digest())
        .isEqualTo(d1)
        .startsWith("sha256:");
    reversed.put("b.rego", "package p\nq := 2\n");
    assertThat(RegoAuthorizer.create(CTX, "data.p.allow", reversed).digest()).isNotEqualTo(d1);
  }

  @Test
  void metadataNamingASchemaIsAcceptedButIgnored() throws Exception {
    String src =
        "package p\n\n# METADATA\n# schemas:\n#   - input: schema[\"https://example.invalid/schema.json\"]\nallow := true\n";
    RegoAuthorizer.create(CTX, "data.p.allow", Map.of("p.rego", src))
        .authorize(CTX, Policies.execute("a", "k"));
  }

  @Test
  void metadataWithAnExternalSchemaReferenceIsRejected() {
    String src =
        "package p\n\n# METADATA\n# schemas:\n#   - input:\n#       $ref: \"https://example.invalid/schema.json\"\nallow := true\n";
    assertThatThrownBy(() -> RegoAuthorizer.create(CTX, "data.p.allow", Map.of("p.rego", src)))
        .isInstanceOf(RegoPolicyError.class)
        .hasMessageContaining("remote references are disabled");
  }
}
