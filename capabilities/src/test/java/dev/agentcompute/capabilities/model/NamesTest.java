package dev.agentcompute.capabilities.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.service.SandboxNameGenerator;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class NamesTest {
  @Test
  void acceptsLowercaseDigitsAndInternalHyphens() {
    assertThat(Names.require("a")).isEqualTo("a");
    assertThat(Names.require("web-01")).isEqualTo("web-01");
    assertThat(Names.require("a".repeat(32))).hasSize(32);
  }

  @Test
  void rejectsEverythingElseWithTheExactText() {
    for (String bad :
        new String[] {"", "-a", "a-", "A", "a_b", "a.b", "é", "a".repeat(33), "a b"}) {
      assertThatThrownBy(() -> Names.require(bad))
          .isInstanceOf(AgentFacingException.class)
          .hasMessage("invalid name \"" + bad + "\"");
    }
  }

  @Test
  void reservedWordsAreRefusedExceptAsNetworkReference() {
    assertThatThrownBy(() -> Names.require("default")).hasMessage("name \"default\" is reserved");
    assertThatThrownBy(() -> Names.require("none")).hasMessage("name \"none\" is reserved");
    assertThat(Names.requireNetworkRef("default")).isEqualTo("default");
    assertThatThrownBy(() -> Names.requireNetworkRef("none"))
        .hasMessage("name \"none\" is reserved");
  }

  @Test
  void generatedNamesAreAdjectiveNounAndFollowTheGrammar() {
    SandboxNameGenerator generator = new SandboxNameGenerator(new SplittableRandom(7));
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 2000; i++) {
      String name = generator.next();
      assertThat(Names.matchesGrammar(name)).as(name).isTrue();
      assertThat(name).matches("[a-z]+-[a-z]+");
      seen.add(name);
    }
    assertThat(seen).hasSize(144).contains("amber-acorn", "lucky-lagoon");
  }
}
