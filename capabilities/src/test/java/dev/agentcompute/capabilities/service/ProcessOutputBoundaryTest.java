package dev.agentcompute.capabilities.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** instance.process.output never returns half of a UTF-8 character: the cut one waits. */
class ProcessOutputBoundaryTest {
  private static final byte[] EURO = "€".getBytes(StandardCharsets.UTF_8);

  @Test
  void wholeCharactersAreKept() {
    byte[] text = "a€b".getBytes(StandardCharsets.UTF_8);
    assertThat(ProcessService.wholeCharacters(text)).isEqualTo(text);
    assertThat(ProcessService.wholeCharacters(EURO)).isEqualTo(EURO);
  }

  @Test
  void aCharacterCutAtTheEndIsLeftForTheNextCall() {
    byte[] cut = Arrays.copyOf("ab€".getBytes(StandardCharsets.UTF_8), 4);
    assertThat(ProcessService.wholeCharacters(cut))
        .isEqualTo("ab".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aChunkThatIsOnlyPartOfOneCharacterIsReturnedAsItIs() {
    // Nothing whole to return: returning nothing would never move the offset on.
    byte[] part = Arrays.copyOf(EURO, 2);
    assertThat(ProcessService.wholeCharacters(part)).isEqualTo(part);
  }

  @Test
  void anEmptyChunkStaysEmpty() {
    assertThat(ProcessService.wholeCharacters(new byte[0])).isEmpty();
  }
}
