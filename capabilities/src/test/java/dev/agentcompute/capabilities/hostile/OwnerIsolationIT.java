package dev.agentcompute.capabilities.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.adapter.instance.InstanceCapabilities;
import dev.agentcompute.capabilities.adapter.net.NetCapabilities;
import dev.agentcompute.capabilities.adapter.sandbox.SandboxCapabilities;
import dev.agentcompute.capabilities.config.Isolation;
import dev.agentcompute.capabilities.model.AgentFacingException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * With {@code sandbox.access: owner}, an agent that names another identity's sandbox, through the
 * capabilities as an agent calls them, gets exactly the answer it would get for a sandbox that does
 * not exist; an operator reaches it; and a generated name cannot be guessed from the 144 plain
 * ones.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class OwnerIsolationIT {
  private static final String OPERATOR = "ops";
  private static ComputeRuntime runtime;
  private static List<CapabilityDefinition<?, ?>> caps;
  private static String alices;

  @BeforeAll
  static void start() {
    runtime =
        Hostile.start(
            Hostile.config(Hostile.PROTECTED).withIsolation(new Isolation(true, Set.of(OPERATOR))));
    caps = runtime.capabilities();
    SandboxCapabilities.CreateOutput created =
        call(
            "alice",
            "sandbox.create",
            new SandboxCapabilities.CreateInput(
                Optional.empty(), Optional.empty(), OptionalLong.of(30), Optional.empty()));
    alices = created.name();
  }

  @AfterAll
  static void stop() {
    try {
      if (alices != null) {
        call("alice", "sandbox.delete", new SandboxCapabilities.NameInput(alices));
      }
    } finally {
      runtime.close();
    }
  }

  @SuppressWarnings("unchecked")
  private static <O> O call(String subject, String name, Record input) {
    for (CapabilityDefinition<?, ?> c : caps) {
      if (c.name().equals(name)) {
        return (O) c.invoke(subject, input);
      }
    }
    throw new IllegalArgumentException("no capability " + name);
  }

  /** What {@code subject} gets for each capability naming {@code sandbox}. */
  private static List<String> answers(String subject, String sandbox) {
    List<Function<String, Record>> inputs =
        List.of(
            s -> new SandboxCapabilities.NameInput(s),
            s -> new SandboxCapabilities.ExtendInput(s, 30),
            s -> new SandboxCapabilities.NameInput(s),
            s -> new InstanceCapabilities.SandboxInput(s),
            s -> new InstanceCapabilities.RefInput(s, "web"),
            s -> new NetCapabilities.SandboxInput(s));
    List<String> names =
        List.of(
            "sandbox.get",
            "sandbox.extend",
            "sandbox.delete",
            "instance.list",
            "instance.get",
            "net.list");
    List<String> result = new java.util.ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      String capability = names.get(i);
      Record input = inputs.get(i).apply(sandbox);
      try {
        call(subject, capability, input);
        result.add(capability + ": answered");
      } catch (AgentFacingException e) {
        result.add(capability + ": " + e.getMessage().replace(sandbox, "<name>"));
      }
    }
    return result;
  }

  @Test
  void anotherIdentitysSandboxAnswersAsAMissingOne() {
    String missing = "golden-kestrel-" + "x".repeat(10);
    List<String> forMissing = answers("bob", missing);
    assertThat(forMissing).allSatisfy(a -> assertThat(a).endsWith("sandbox \"<name>\" not found"));
    assertThat(answers("bob", alices)).isEqualTo(forMissing);
    SandboxCapabilities.ListOutput bobs =
        call("bob", "sandbox.list", new SandboxCapabilities.ListInput());
    assertThat(bobs.items()).noneMatch(i -> i.name().equals(alices));
    // Alice's sandbox is still there and hers, and the operator reaches it.
    Object hers = call("alice", "sandbox.get", new SandboxCapabilities.NameInput(alices));
    assertThat(hers).isNotNull();
    Object seen = call(OPERATOR, "instance.list", new InstanceCapabilities.SandboxInput(alices));
    assertThat(seen).isNotNull();
    SandboxCapabilities.ListOutput ops =
        call(OPERATOR, "sandbox.list", new SandboxCapabilities.ListInput());
    assertThat(ops.items()).anyMatch(i -> i.name().equals(alices));
  }

  @Test
  void generatedNamesCarryFiftyRandomBits() {
    assertThat(alices).matches("[a-z]+-[a-z]+-[a-z2-7]{10}");
  }
}
