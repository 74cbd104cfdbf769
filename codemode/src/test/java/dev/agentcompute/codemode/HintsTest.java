package dev.agentcompute.codemode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.codemode.authz.AccessDenied;
import dev.agentcompute.codemode.authz.AccessRequest;
import dev.agentcompute.codemode.authz.ConfirmationRequired;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Capability hints (docs/reference/policy.md#hints): shown by describe, read by no decision. */
class HintsTest {

  record Name(String name) {}

  record Done(String name) {}

  static final Subject USER = new Subject("u");

  /** Records every question; denies key 'secret', asks confirmation for records.pin. */
  static final class Recording implements Policy {
    final List<AccessRequest> asked = new CopyOnWriteArrayList<>();

    @Override
    public void authorize(Context ctx, AccessRequest r) throws Exception {
      asked.add(r);
      if ("secret".equals(r.arguments().get("name"))) {
        throw new AccessDenied();
      }
      if (r.kind() == AccessRequest.Kind.EXECUTE && r.name().equals("records.pin")) {
        throw new ConfirmationRequired("pin");
      }
    }

    @Override
    public String scopeKey(Context ctx, Subject subject) {
      return subject.id();
    }
  }

  static Server build(Policy policy, Hints hints, String title) throws CodeModeException {
    Builder b = CodeMode.builder(Options.builder().policy(policy).build());
    for (String op : List.of("get", "delete", "pin")) {
      b.register(
          Capability.named("records." + op, Name.class, Done.class)
              .summary("Records " + op + ".")
              .hints(hints)
              .title(title)
              .confirmation(op.equals("delete") ? Confirmation.REQUIRED : Confirmation.NOT_REQUIRED)
              .handler((c, s, in) -> new Done(op + " " + in.name())));
    }
    return b.build();
  }

  @Test
  void describeShowsTheDeclaredHintsAndTitle() throws Exception {
    Hints h = Hints.defaults().withReadOnly(true).withDestructive(false).withOpenWorld(false);
    try (Server s = build(Policy.allowRegistered(), h, "Read a record")) {
      Description d = s.describe(Context.background(), USER, "records.get");

      assertThat(d.hints()).isEqualTo(new Hints(true, false, false, false));
      assertThat(d.title()).isEqualTo("Read a record");
    }
  }

  @Test
  void undeclaredHintsAreMcpsDefaults() {
    assertThat(Hints.defaults()).isEqualTo(new Hints(false, true, false, true));
    assertThat(
            Capability.named("a.b", Name.class, Done.class)
                .summary("S.")
                .handler((c, s, in) -> null)
                .hints())
        .isEqualTo(Hints.defaults());
  }

  @Test
  void aTitleWithSurroundingWhitespaceIsRejected() {
    CodeModeException e = null;
    try (Server s = build(Policy.allowRegistered(), Hints.defaults(), " Read ")) {
      throw new AssertionError("built");
    } catch (CodeModeException x) {
      e = x;
    }
    assertThat(e.getMessage()).contains("title must not have surrounding whitespace");
  }

  @Test
  void flippingEveryHintChangesNoDecision() throws Exception {
    Hints h = new Hints(true, false, true, false);
    Hints flipped = new Hints(false, true, false, true);
    assertThat(decisions(h)).isEqualTo(decisions(flipped));
  }

  /** Everything a policy, the confirmation gate and dispatch decided in one scenario. */
  static List<Object> decisions(Hints hints) throws Exception {
    Recording policy = new Recording();
    List<Object> out = new ArrayList<>();
    try (Server s = build(policy, hints, "")) {
      out.add(s.search(Context.background(), USER, "records", null));
      Description d = s.describe(Context.background(), USER, "records.delete");
      out.add(List.of(d.name(), d.signature(), d.input(), d.output()));
      for (String body :
          List.of(
              "return records.get(name='a')",
              "return records.get(name='secret')",
              "return records.delete(name='a')",
              "return records.pin(name='a')")) {
        try {
          out.add(ContractServer.run(s, USER, body));
        } catch (CodeModeException e) {
          out.add(e.failure());
          out.add(e.pendingConfirmation().map(p -> p.capability() + p.arguments()).orElse(""));
        }
      }
      out.add(
          ContractServer.failure(s, USER, "return records.delete(name='a')")
              .startsWith("confirmation required"));
      Object approved =
          s.execute(
              Context.background(),
              USER,
              Execution.of("def main():\n    return records.delete(name='a')\n")
                  .withConfirmer((c, p) -> true));
      out.add(approved);
    }
    out.add(policy.asked);
    return out;
  }
}
