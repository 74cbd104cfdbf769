package dev.agentcompute.incus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ScopeTest {

  @Test
  void addsProjectAndTargetToAnyPath() {
    assertThat(Scope.DEFAULT.apply("/1.0/instances")).isEqualTo("/1.0/instances");
    assertThat(new Scope("ac-s1", null).apply("/1.0/instances?recursion=1"))
        .isEqualTo("/1.0/instances?recursion=1&project=ac-s1");
    assertThat(new Scope("p", "lab01").apply("/1.0/networks"))
        .isEqualTo("/1.0/networks?project=p&target=lab01");
    assertThat(new Scope(null, "m 1").apply("/x")).isEqualTo("/x?target=m%201");
  }

  @Test
  void segmentsCannotChangeTheUrlShape() {
    assertThat(Scope.segment("a/b?c")).isEqualTo("a%2Fb%3Fc");
    assertThat(Scope.encode("/tmp/a b&c")).isEqualTo("%2Ftmp%2Fa%20b%26c");
    assertThatThrownBy(() -> Scope.segment("")).isInstanceOf(IllegalArgumentException.class);
  }
}
