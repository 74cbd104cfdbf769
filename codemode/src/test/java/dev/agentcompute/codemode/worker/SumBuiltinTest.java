package dev.agentcompute.codemode.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.starlark.eval.Bool;
import dev.agentcompute.starlark.eval.EvalException;
import dev.agentcompute.starlark.eval.Operators;
import dev.agentcompute.starlark.eval.StarlarkFloat;
import dev.agentcompute.starlark.eval.StarlarkInt;
import dev.agentcompute.starlark.eval.StarlarkList;
import dev.agentcompute.starlark.eval.StarlarkString;
import dev.agentcompute.starlark.eval.StarlarkThread;
import dev.agentcompute.starlark.eval.Value;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

class SumBuiltinTest {
  private Value sum(Value... args) throws EvalException {
    return SumBuiltin.builtin().call(new StarlarkThread(), args, List.of());
  }

  @Test
  void intsStayIntsUntilAFloatAppears() throws Exception {
    assertThat(sum(StarlarkList.of())).isEqualTo(StarlarkInt.of(0));
    assertThat(sum(StarlarkList.of(StarlarkInt.of(Long.MAX_VALUE), StarlarkInt.of(1))).toString())
        .isEqualTo("9223372036854775808");
    assertThat(
            Operators.repr(
                sum(StarlarkList.of(StarlarkInt.of(1), StarlarkFloat.of(0.5), StarlarkInt.of(2)))))
        .isEqualTo("3.5");
  }

  @Test
  void errorsMatchCodeMode() {
    assertThatThrownBy(() -> sum(StarlarkList.of(StarlarkString.of("a"))))
        .hasMessage("sum: at index 0, got string, want int or float");
    assertThatThrownBy(() -> sum(StarlarkList.of(Bool.TRUE)))
        .hasMessage("sum: at index 0, got bool, want int or float");
    assertThatThrownBy(() -> sum(StarlarkList.of(), StarlarkInt.of(0)))
        .hasMessage("sum: got 2 arguments, want 1");
    assertThatThrownBy(
            () ->
                sum(StarlarkList.of(StarlarkInt.of(BigInteger.TEN.pow(400)), StarlarkFloat.of(1))))
        .hasMessage("sum: int too large to convert to float");
  }
}
