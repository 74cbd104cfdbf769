package dev.agentcompute.rego.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The value model: OPA's ordering, numeric equality, JSON and Rego text. */
class ValuesTest {

  @Test
  void typesOrderAsInOpa() {
    List<RegoValue> vs =
        new ArrayList<>(
            List.of(
                RegoSet.EMPTY,
                RegoObject.EMPTY,
                RegoArray.EMPTY,
                RegoString.of("a"),
                RegoNumber.of(1),
                RegoBoolean.TRUE,
                RegoNull.NULL));
    vs.sort(Values::compare);
    assertThat(vs)
        .extracting(RegoValue::typeName)
        .containsExactly("null", "boolean", "number", "string", "array", "object", "set");
  }

  @Test
  void numbersAreEqualByValueWhateverTheirText() {
    RegoNumber a = RegoNumber.parse("1.0");
    assertThat(a).isEqualTo(RegoNumber.of(1)).hasSameHashCodeAs(RegoNumber.of(1));
    assertThat(a.text()).isEqualTo("1.0");
  }

  @Test
  void bigNumbersCompareExactly() {
    assertThat(
            Values.compare(
                RegoNumber.parse("100000000000000000001"),
                RegoNumber.parse("100000000000000000000")))
        .isPositive();
    assertThat(RegoNumber.parse("1e2")).isEqualTo(RegoNumber.of(100));
  }

  @Test
  void stringsCompareByCodePointNotUtf16Unit() {
    // U+FF5E sorts before U+1F600 by code point, after it by UTF-16 unit.
    assertThat(Values.compare(RegoString.of("\uff5e"), RegoString.of("\ud83d\ude00"))).isNegative();
  }

  @Test
  void setsAndObjectKeysIterateInSortedOrder() {
    assertThat(RegoSet.of(RegoNumber.of(3), RegoNumber.of(1), RegoNumber.of(2)).toString())
        .isEqualTo("{1, 2, 3}");
    assertThat(Values.fromJava(Map.of("b", 1, "a", 2)).toString())
        .isEqualTo("{\"a\": 2, \"b\": 1}");
  }

  @Test
  void largeSetsAnswerMembershipThroughTheirIndex() {
    List<RegoValue> xs = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      xs.add(RegoNumber.of(i));
    }
    RegoSet s = RegoSet.of(xs);
    assertThat(s.contains(RegoNumber.parse("42.0"))).isTrue();
    assertThat(s.contains(RegoNumber.of(100))).isFalse();
  }

  @Test
  void jsonKeepsNumberTextAndEscapesHtmlAsGoDoes() throws Exception {
    RegoValue v = Json.parse("{\"n\": 1.50, \"s\": \"<&>\"}");
    assertThat(Json.write(v)).isEqualTo("{\"n\":1.50,\"s\":\"\\u003c\\u0026\\u003e\"}");
  }

  @Test
  void jsonRejectsNestingBeyondTheLimit() {
    assertThatThrownBy(() -> Json.parse("[".repeat(20) + "]".repeat(20), 10))
        .hasMessage("exceeded max depth");
  }

  @Test
  void emptySetsPrintAsSetCall() {
    assertThat(RegoSet.EMPTY.toString()).isEqualTo("set()");
  }

  @Test
  void javaDoublesPrintAsGoDoes() {
    assertThat(RegoNumber.of(0.000001).text()).isEqualTo("1e-06");
    assertThat(RegoNumber.of(1.5).text()).isEqualTo("1.5");
    assertThat(RegoNumber.of(3.0)).isEqualTo(RegoNumber.of(3));
  }

  @Test
  void toJavaRendersSetsAsListsAndNonStringKeysAsJson() {
    RegoObject o =
        new RegoObject.Builder().put(RegoNumber.of(1), RegoSet.of(RegoString.of("x"))).build();
    assertThat(Values.toJava(o)).isEqualTo(Map.of("1", List.of("x")));
  }

  @Test
  void fromJavaRejectsNonFiniteDoubles() {
    assertThatThrownBy(() -> Values.fromJava(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void fromJavaRejectsStructuresDeeperThanTheLimit() {
    Object deep = List.of();
    for (int i = 0; i < Values.MAX_DEPTH + 5; i++) {
      deep = List.of(deep);
    }
    Object input = deep;
    assertThatThrownBy(() -> Values.fromJava(input)).hasMessageContaining("nested deeper");
  }

  @Test
  void bigDecimalsAreCanonicalisedToIntegersWhenIntegral() {
    assertThat(RegoNumber.of(new BigDecimal("5.000")).fitsLong()).isTrue();
  }
}
