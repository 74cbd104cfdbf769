package dev.agentcompute.server.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TtlTextTest {
  @ParameterizedTest
  @CsvSource({"90m,90", "2h,120", "1h30m,90", "45,45", " 2H ,120", "1h30,90"})
  void operatorsWriteMinutesOrHours(String text, long minutes) {
    assertThat(TtlText.minutes(text)).isEqualTo(minutes);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "0", "0m", "soon", "-5m", "2d", "h"})
  void anythingElseIsA400ThatShowsTheForms(String text) {
    assertThatThrownBy(() -> TtlText.minutes(text))
        .isInstanceOfSatisfying(AdminException.class, e -> assertThat(e.status()).isEqualTo(400))
        .hasMessageContaining("duration");
  }
}
