package dev.agentcompute.server.compute;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.authz.AccessDenied;
import dev.agentcompute.codemode.authz.AccessRequest;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.authz.rego.RegoAccessPolicy;
import dev.agentcompute.codemode.authz.rego.RegoAuthorizer;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The sandbox a call names reaches the Rego input as {@code input.sandbox = {name, owner}}, so a
 * real policy can say which teams may touch whose sandboxes.
 */
class RegoOwnerPolicyTest {
  // Teams share their sandboxes; a call that names no sandbox (sandbox.list, image.list) is open.
  private static final String TEAMS =
      """
      package agentcompute.authz

      default allow := false

      teams := {"red": {"alice", "bob"}, "blue": {"carol"}}

      team_of(id) := t if {
        some t
        teams[t][id]
      }

      allow if not input.sandbox

      allow if team_of(input.subject.id) == team_of(input.sandbox.owner)
      """;

  private static final Instant T = Instant.parse("2026-12-06T00:00:00Z");

  private final Map<String, Sandbox> sandboxes =
      Map.of(
          "red-lab",
          new Sandbox(
              "red-lab",
              "incus",
              T,
              T.plusSeconds(3600),
              "alice",
              false,
              "",
              null,
              NetworkKind.BRIDGE,
              "none"));

  private final Policy policy =
      SandboxFacts.around(rego(), name -> Optional.ofNullable(sandboxes.get(name)));

  private static Policy rego() {
    try {
      return RegoAccessPolicy.of(
          RegoAuthorizer.create(
              Context.background(), "data.agentcompute.authz.allow", Map.of("teams.rego", TEAMS)));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static AccessRequest call(String subject, String capability, Map<String, Object> args) {
    return new AccessRequest(
        AccessRequest.Kind.EXECUTE, new Subject(subject), capability, capability, args);
  }

  @Test
  void aTeammateMayUseTheOwnersSandbox() {
    assertThatCode(
            () ->
                policy.authorize(
                    Context.background(),
                    call("bob", "instance.create", Map.of("sandbox", "red-lab", "name", "web"))))
        .doesNotThrowAnyException();
  }

  @Test
  void anotherTeamIsDeniedTheSandbox() {
    assertThatThrownBy(
            () ->
                policy.authorize(
                    Context.background(),
                    call("carol", "sandbox.delete", Map.of("sandbox", "red-lab"))))
        .isInstanceOf(AccessDenied.class);
  }

  @Test
  void aMissingSandboxHasNoOwnerSoNoTeamRuleHolds() {
    assertThatThrownBy(
            () ->
                policy.authorize(
                    Context.background(), call("alice", "sandbox.get", Map.of("sandbox", "gone"))))
        .isInstanceOf(AccessDenied.class);
  }

  @Test
  void aCallThatNamesNoSandboxGetsNoSandboxInput() {
    assertThatCode(
            () -> policy.authorize(Context.background(), call("carol", "sandbox.list", Map.of())))
        .doesNotThrowAnyException();
  }

  @Test
  void theFactsAreTheServersNotTheCallers() {
    // A caller cannot pass its own owner: only the arguments carry what it sent.
    AccessRequest forged =
        call("carol", "sandbox.delete", Map.of("sandbox", "red-lab", "owner", "carol"));
    assertThatThrownBy(() -> policy.authorize(Context.background(), forged))
        .isInstanceOf(AccessDenied.class);
  }
}
