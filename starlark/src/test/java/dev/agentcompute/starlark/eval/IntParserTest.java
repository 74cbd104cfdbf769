package dev.agentcompute.starlark.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** Parsing digits by halves gives BigInteger's value in every radix. */
class IntParserTest {
  @Provide
  Arbitrary<BigInteger> values() {
    return Arbitraries.integers()
        .between(1, 40_000)
        .flatMap(bits -> Arbitraries.randomValue(r -> new BigInteger(bits, r)))
        .flatMap(v -> Arbitraries.of(v, v.negate()));
  }

  @Property(tries = 200)
  void parsesAsBigIntegerDoes(
      @ForAll("values") BigInteger v, @ForAll @IntRange(min = 2, max = 36) int radix) {
    String digits = v.toString(radix);
    assertThat(IntParser.parse(digits, radix)).isEqualTo(v);
    assertThat(IntParser.parse("+" + "000" + v.abs().toString(radix), radix)).isEqualTo(v.abs());
  }
}
