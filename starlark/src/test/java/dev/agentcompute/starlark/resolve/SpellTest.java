package dev.agentcompute.starlark.resolve;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** "did you mean" hints as starlark-go's spell.Nearest finds them. */
class SpellTest {
  @Test
  void theNearestCandidateWithinHalfTheLengthIsSuggested() {
    assertThat(Spell.nearest("appendd", List.of("extend", "append", "pop"))).isEqualTo("append");
  }

  @Test
  void caseAndUnderscoresAreIgnored() {
    assertThat(Spell.nearest("Foo_Bar", List.of("foobar"))).isEqualTo("foobar");
  }

  @Test
  void noCandidateIsSuggestedBeyondHalfTheLength() {
    assertThat(Spell.nearest("abcd", List.of("wxyz", "abxy"))).isNull();
  }

  @Test
  void distancesCountUtf8BytesAsGoDoes() {
    // "é" is two bytes: two edits from "e", too many for a four-byte name
    assertThat(Spell.nearest("cafe", List.of("café"))).isNull();
  }
}
