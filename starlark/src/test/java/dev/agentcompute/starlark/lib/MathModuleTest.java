package dev.agentcompute.starlark.lib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.starlark.eval.Callable;
import dev.agentcompute.starlark.eval.EvalException;
import dev.agentcompute.starlark.eval.Module;
import dev.agentcompute.starlark.eval.StarlarkFloat;
import dev.agentcompute.starlark.eval.StarlarkInt;
import dev.agentcompute.starlark.eval.StarlarkString;
import dev.agentcompute.starlark.eval.StarlarkThread;
import dev.agentcompute.starlark.eval.Value;
import java.util.List;
import org.junit.jupiter.api.Test;

class MathModuleTest {
  private final Module math = MathModule.module();

  private Value call(String fn, Value... args) throws EvalException {
    return ((Callable) math.attr(fn)).call(new StarlarkThread(), args, List.of());
  }

  private double d(String fn, double... args) throws EvalException {
    Value[] vs = new Value[args.length];
    for (int k = 0; k < args.length; k++) {
      vs[k] = StarlarkFloat.of(args[k]);
    }
    return ((StarlarkFloat) call(fn, vs)).value();
  }

  @Test
  void ceilAndFloorReturnInts() throws Exception {
    assertThat(call("ceil", StarlarkFloat.of(1.2))).isEqualTo(StarlarkInt.of(2));
    assertThat(call("floor", StarlarkFloat.of(-1.2))).isEqualTo(StarlarkInt.of(-2));
    assertThat(call("floor", StarlarkInt.of(5))).isEqualTo(StarlarkInt.of(5));
    assertThat(call("ceil", StarlarkFloat.of(1e30)).toString())
        .isEqualTo("1000000000000000019884624838656");
    assertThatThrownBy(() -> call("ceil", StarlarkFloat.of(Double.POSITIVE_INFINITY)))
        .hasMessage("cannot convert float infinity to integer");
  }

  @Test
  void goSemantics() throws Exception {
    assertThat(d("round", 0.5)).isEqualTo(1.0);
    assertThat(d("round", -0.5)).isEqualTo(-1.0);
    assertThat(d("round", 0.49999999999999994)).isEqualTo(0.0);
    assertThat(d("mod", -7, 3)).isEqualTo(-1.0);
    assertThat(d("remainder", 7, 4)).isEqualTo(-1.0);
    assertThat(d("pow", 1, Double.NaN)).isEqualTo(1.0);
    assertThat(d("log", 0)).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(d("log", 8, 2)).isEqualTo(3.0);
    assertThat(d("gamma", 5)).isEqualTo(24.0);
    assertThat(d("gamma", 0.5))
        .isCloseTo(Math.sqrt(Math.PI), org.assertj.core.data.Offset.offset(1e-15));
    assertThat(d("gamma", -1)).isNaN();
    assertThat(d("degrees", Math.PI)).isEqualTo(180.0);
    assertThat(((StarlarkFloat) math.attr("pi")).value()).isEqualTo(Math.PI);
  }

  @Test
  void errors() {
    assertThatThrownBy(() -> call("log", StarlarkInt.of(2), StarlarkInt.of(1)))
        .hasMessage("division by zero");
    assertThatThrownBy(() -> call("sqrt", StarlarkString.of("x")))
        .hasMessage("sqrt: for parameter 1: got string, want float or int");
    assertThatThrownBy(() -> call("pow", StarlarkInt.of(1)))
        .hasMessage("pow: got 1 arguments, want 2");
  }
}
