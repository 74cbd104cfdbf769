package dev.agentcompute.rego.lib;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Arithmetic (exact for integers, OPA's 64-bit-mantissa floats otherwise), aggregates, bits. */
class NumberBuiltinsTest {

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(
      delimiter = ';',
      value = {
        "1 / 3 ; 0.33333333333333333334",
        "10 / 4 ; 2.5",
        "4 / 2 ; 2",
        "1e7 / 3 ; 3.3333333333333333333e+06",
        "0.1 + 0.2 ; 0.3",
        "12345678901234567890 * 98765432109876543210 ; 1219326311370217952237463801111263526900",
        "7 % -3 ; 1",
        "-7 % 3 ; -1",
        "round(2.5) ; 3",
        "round(-2.5) ; -3",
        "floor(-1.5) ; -2",
        "ceil(1.2) ; 2",
        "abs(-3.5) ; 3.5",
        "1 == 1.0 ; true",
        "count(\"añb\") ; 3",
        "sum([1, 2.5]) ; 3.5",
        "product({2, 3}) ; 6",
        "max([1, \"a\", 3]) ; \"a\"",
        "min({3, 1}) ; 1",
        "sort([3, \"a\", 1, null]) ; [null,1,3,\"a\"]",
        "numbers.range(3, 1) ; [3,2,1]",
        "numbers.range_step(0, 10, 4) ; [0,4,8]",
        "bits.and(12, 10) ; 8",
        "bits.or(12, 10) ; 14",
        "bits.xor(12, 10) ; 6",
        "bits.negate(0) ; -1",
        "bits.lsh(1, 70) ; 1180591620717411303424",
        "bits.rsh(-8, 1) ; -4",
        "to_number(\"1.50\") ; 1.50",
        "to_number(true) ; 1",
        "to_number(null) ; 0",
      })
  void evaluatesAsOpaDoes(String expr, String json) throws Exception {
    assertThat(Expressions.eval(expr)).isEqualTo(json);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = ';',
      value = {
        "1 / 0 ; eval_builtin_error: div: divide by zero",
        "1 % 0 ; eval_builtin_error: rem: modulo by zero",
        "1.5 % 1 ; eval_builtin_error: rem: modulo on floating-point number",
        "1 + \"a\" ; eval_type_error: plus: operand 2 must be number but got string",
        "{1} - 1 ; eval_type_error: minus: operand 2 must be set but got number",
        "numbers.range_step(1, 5, 0) ; eval_builtin_error: numbers.range_step: step must be a positive integer",
        "bits.lsh(1, -1) ; eval_type_error: bits.lsh: operand 2 must be an unsigned integer number but got a negative integer",
        "to_number(\"x\") ; eval_builtin_error: to_number: strconv.ParseFloat: parsing \"x\": invalid syntax",
        "sum([1, \"a\"]) ; eval_type_error: sum: operand 1 must be array of numbers but got array containing string",
      })
  void rejectsBadOperandsWithOpasMessages(String expr, String message) throws Exception {
    assertThat(Expressions.error(expr)).isEqualTo(message);
  }
}
