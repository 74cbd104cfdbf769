package dev.agentcompute.server.compute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Failure;
import dev.agentcompute.codemode.NativeCallRecord;
import dev.agentcompute.codemode.ResourceBody;
import dev.agentcompute.codemode.ResourceDescription;
import dev.agentcompute.codemode.ResourceItem;
import dev.agentcompute.codemode.ResourceSource;
import dev.agentcompute.codemode.Resources;
import dev.agentcompute.codemode.Tokens;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.ResourcePolicy;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.authz.rego.RegoAccessPolicy;
import dev.agentcompute.codemode.authz.rego.RegoAuthorizer;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A resource read asks the policy what the capability call it stands for would ask
 * (docs/reference/policy.md#agentcomputes-resources): a Rego policy that denies {@code
 * instance.get} makes the instance resource unreadable, the capability's work never runs, and the
 * refusal leaves an audit line.
 */
class ResourceReadPolicyTest {
  private static final String POLICY =
      """
      package agentcompute.authz

      default allow := false

      allow if input.capability.id != "instance.get"

      allow if {
        input.capability.id == "instance.get"
        input.arguments.sandbox != "secret"
      }
      """;

  private final List<NativeCallRecord> audit = new CopyOnWriteArrayList<>();
  private final AtomicInteger reads = new AtomicInteger();
  private final Subject alice = new Subject("alice");

  private Resources resources(Policy policy, List<String> confirm) throws Exception {
    ResourceGate gate =
        new ResourceGate(() -> policy, () -> confirm, audit::add, InstantSource.system());
    // As AgentResourcePolicy: everything visible, reads through the gate.
    ResourcePolicy readPolicy =
        new ResourcePolicy() {
          @Override
          public void discover(Context ctx, Subject subject, ResourceDescription d) {}

          @Override
          public void visible(Context ctx, Subject subject, ResourceItem item) {}

          @Override
          public void read(Context ctx, Subject subject, ResourceItem item) throws Exception {
            gate.check(ctx, subject, ResourceCall.of(item).orElseThrow());
          }

          @Override
          public String scopeKey(Context ctx, Subject subject) {
            return subject.id();
          }
        };
    return Resources.builder(readPolicy)
        .tokens(Tokens.random())
        .source(
            ResourceSource.template(
                AgentResources.INSTANCES,
                (ctx, subject) -> List.of(),
                (ctx, subject, item) ->
                    gate.run(
                        subject,
                        ResourceCall.of(item).orElseThrow(),
                        () -> {
                          reads.incrementAndGet();
                          return new ResourceBody.Text("{\"name\":\"i\"}");
                        })))
        .build();
  }

  private static Policy rego() throws Exception {
    return RegoAccessPolicy.of(
        RegoAuthorizer.create(
            Context.background(), "data.agentcompute.authz.allow", Map.of("authz.rego", POLICY)));
  }

  @Test
  void aResourceReadDeniedByTheRegoPolicyIsNotReadableAndAudited() throws Exception {
    Resources r = resources(rego(), List.of());

    assertThatThrownBy(
            () ->
                r.read(Context.background(), alice, "agentcompute://sandboxes/secret/instances/i"))
        .isInstanceOfSatisfying(
            CodeModeException.class,
            e -> assertThat(e.failure()).isEqualTo(Failure.RESOURCE_NOT_READABLE));
    assertThat(reads).hasValue(0);
    assertThat(audit)
        .singleElement()
        .satisfies(
            a -> {
              assertThat(a.subject()).isEqualTo("alice");
              assertThat(a.capabilityName()).isEqualTo("instance.get");
              assertThat(a.outcome()).isEqualTo("permission_denied");
              assertThat(a.resource()).isEqualTo("secret");
            });
  }

  @Test
  void aReadThePolicyAllowsIsReadAndAuditedAsTheCall() throws Exception {
    Resources r = resources(rego(), List.of());

    var read = r.read(Context.background(), alice, "agentcompute://sandboxes/open/instances/i");

    assertThat(read.contents()).hasSize(1);
    assertThat(reads).hasValue(1);
    assertThat(audit)
        .singleElement()
        .satisfies(
            a -> {
              assertThat(a.capabilityName()).isEqualTo("instance.get");
              assertThat(a.outcome()).isEqualTo("ok");
              assertThat(a.resource()).isEqualTo("open");
            });
  }

  @Test
  void aCapabilityThatNeedsConfirmationIsNotReadableAsAResource() throws Exception {
    Resources r = resources(Policy.allowRegistered(), List.of("instance.get"));

    assertThatThrownBy(
            () -> r.read(Context.background(), alice, "agentcompute://sandboxes/open/instances/i"))
        .isInstanceOfSatisfying(
            CodeModeException.class,
            e -> assertThat(e.failure()).isEqualTo(Failure.RESOURCE_NOT_READABLE));
    assertThat(reads).hasValue(0);
    assertThat(audit)
        .singleElement()
        .extracting(NativeCallRecord::outcome)
        .isEqualTo("confirmation_required");
  }
}
