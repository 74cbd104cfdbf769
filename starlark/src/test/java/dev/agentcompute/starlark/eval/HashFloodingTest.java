package dev.agentcompute.starlark.eval;

import static dev.agentcompute.starlark.eval.Values.f;
import static dev.agentcompute.starlark.eval.Values.i;
import static dev.agentcompute.starlark.eval.Values.s;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.HashSet;
import java.util.Set;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Keys that collide under a fixed hash (starlark-go's, or Java's String.hashCode) get distinct
 * hashes: a dict of them would otherwise take time quadratic in its size.
 */
class HashFloodingTest {
  private static final int N = 4096;

  private static int distinctHashes(IntFunction<Value> key) throws EvalException {
    Set<Integer> hashes = new HashSet<>();
    for (int k = 0; k < N; k++) {
      hashes.add(key.apply(k).hash());
    }
    return hashes.size();
  }

  @Test
  void intsWhoseHalvesCancelHashApart() throws EvalException {
    assertThat(distinctHashes(k -> i(k * 4294967297L))).isGreaterThan(N - 8);
  }

  @Test
  void bigIntsThatDifferAboveTheirLowWordHashApart() throws EvalException {
    assertThat(distinctHashes(k -> StarlarkInt.of(BigInteger.valueOf(k).shiftLeft(64))))
        .isGreaterThan(N - 8);
  }

  @Test
  void floatsWithTheSameIntegerPartHashApart() throws EvalException {
    assertThat(distinctHashes(k -> f(1 + k / 1e6))).isGreaterThan(N - 8);
  }

  @Test
  void stringsOfCollidingBlocksHashApart() throws EvalException {
    // "Aa" and "BB" have the same String.hashCode, and so does every string of such blocks
    assertThat(
            distinctHashes(
                k -> {
                  StringBuilder sb = new StringBuilder();
                  for (int bit = 0; bit < 12; bit++) {
                    sb.append((k >> bit & 1) == 0 ? "Aa" : "BB");
                  }
                  return s(sb.toString());
                }))
        .isGreaterThan(N - 8);
  }

  @Test
  void tuplesOfBoolsHashApart() throws EvalException {
    assertThat(
            distinctHashes(
                k -> {
                  Value[] elems = new Value[12];
                  for (int bit = 0; bit < 12; bit++) {
                    elems[bit] = Bool.of((k >> bit & 1) != 0);
                  }
                  return Tuple.of(elems);
                }))
        .isGreaterThan(N - 8);
  }

  @Test
  void equalIntsAndFloatsStillHashAlike() throws EvalException {
    assertThat(f(42.0).hash()).isEqualTo(i(42).hash());
    assertThat(f(-0.0).hash()).isEqualTo(i(0).hash());
    assertThat(f(1e30).hash()).isEqualTo(StarlarkInt.ofFiniteDouble(1e30).hash());
  }

  @Test
  void theHashBuiltinKeepsGosValues() throws EvalException {
    StarlarkThread t = new StarlarkThread();
    assertThat(Values.call(t, "hash", s("abc"))).isEqualTo(i(96354));
    assertThat(Values.call(t, "hash", StarlarkBytes.of(new byte[0]))).isEqualTo(i(0x811c9dc5L));
  }
}
