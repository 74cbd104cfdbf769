package dev.agentcompute.codemode.authz.rego;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.authz.AccessDenied;
import dev.agentcompute.codemode.authz.Subject;
import org.junit.jupiter.api.Test;

/** A Policy with Rego answers for EXECUTE and, optionally, DISCOVER. */
class RegoAccessPolicyTest {

  private static final Context CTX = Context.background();

  private static RegoAuthorizer execute() throws Exception {
    return RegoAuthorizer.create(CTX, Policies.ALLOW, Policies.modules());
  }

  @Test
  void executeIsDecidedByTheExecuteDecision() {
    assertThatThrownBy(
            () -> RegoAccessPolicy.of(execute()).authorize(CTX, Policies.execute("bob", "k")))
        .isInstanceOf(AccessDenied.class);
  }

  @Test
  void theAuthorizerAloneServesAsPolicyOfsExecuteAnswer() throws Exception {
    var p = dev.agentcompute.codemode.authz.Policy.of(execute());
    p.authorize(CTX, Policies.execute("alice", "k"));
    assertThatThrownBy(() -> p.authorize(CTX, Policies.execute("bob", "k")))
        .isInstanceOf(AccessDenied.class);
  }

  @Test
  void withoutADiscoverDecisionDiscoveryIsUnrestricted() throws Exception {
    RegoAccessPolicy.of(execute()).authorize(CTX, Policies.discover("mallory"));
  }

  @Test
  void aDiscoverDecisionCanHideCapabilities() throws Exception {
    RegoAuthorizer exec = execute();
    RegoAccessPolicy p = RegoAccessPolicy.of(exec, exec.forDecision("data.codemode.authz.visible"));
    p.authorize(CTX, Policies.discover("bob"));
    assertThatThrownBy(() -> p.authorize(CTX, Policies.discover("mallory")))
        .isInstanceOf(AccessDenied.class);
  }

  @Test
  void aDiscoverDecisionIsValidatedLikeTheExecuteOne() {
    assertThatThrownBy(() -> execute().forDecision("data.x[y]"))
        .isInstanceOf(RegoPolicyError.class);
  }

  @Test
  void theScopeKeyNamesTheSubjectAndThePolicy() throws Exception {
    RegoAccessPolicy p = RegoAccessPolicy.of(execute());
    assertThat(p.scopeKey(CTX, new Subject("alice")))
        .startsWith("alice@")
        .isEqualTo("alice@" + p.digest().substring(7, 23));
  }
}
