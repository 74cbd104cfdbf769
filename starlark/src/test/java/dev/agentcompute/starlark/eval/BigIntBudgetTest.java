package dev.agentcompute.starlark.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.agentcompute.starlark.Dialect;
import dev.agentcompute.starlark.Starlark;
import dev.agentcompute.starlark.lib.Json;
import dev.agentcompute.starlark.syntax.Token;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Big ints are work: arithmetic and conversions beyond 64 bits are charged in proportion to the
 * operands' size, and an int may not grow beyond {@link StarlarkInt#MAX_BITS}. Each hostile program
 * here ran for minutes inside CodeMode's 1,000,000-step budget before.
 */
class BigIntBudgetTest {
  private static final long CODEMODE_STEPS = 1_000_000;

  private final StarlarkThread thread = new StarlarkThread("t");

  private Value run(String body) throws Exception {
    thread.setMaxSteps(CODEMODE_STEPS);
    String src = "def main():\n" + body.indent(4);
    Program p = Starlark.compile("<codemode>", src, Dialect.CODEMODE, Set.of("json"));
    Module m = p.init(thread, Map.of("json", Json.codeModeModule()));
    return Starlark.call(thread, m.global("main"), List.of(), Map.of());
  }

  private BudgetException budgetError(String body) {
    EvalError e = catchThrowableOfType(EvalError.class, () -> run(body));
    assertThat(e).as("the program must fail").isNotNull();
    assertThat(e.budget()).as("a budget error, not %s", e.getMessage()).isNotNull();
    return e.budget();
  }

  /** An int of about {@code bits} bits, built by shifts (each within Go's 512-bit shift limit). */
  private static String bigInt(int bits) {
    return "x = 1\nfor i in range(" + bits / 500 + "):\n    x = x << 500\n";
  }

  @Test
  void squaringAnIntFortyTimesEndsAtTheSizeLimit() {
    String body = "x = 3\n" + "x = x * x\n".repeat(40) + "return x\n";
    assertThat(budgetError(body))
        .isInstanceOf(SizeLimitException.class)
        .hasMessage("int too large (more than 524288 bits)");
  }

  @Test
  void theSizeLimitIsCheckedBeforeMultiplying() {
    StarlarkInt half = StarlarkInt.of(BigInteger.ONE.shiftLeft(StarlarkInt.MAX_BITS / 2 + 1));
    assertThat(
            catchThrowableOfType(
                SizeLimitException.class, () -> IntOps.binary(null, Token.STAR, half, half)))
        .isNotNull();
    assertThat(thread.steps()).isZero();
  }

  @Test
  void anIntOfExactlyTheLimitIsAllowed() throws Exception {
    StarlarkInt top = StarlarkInt.of(BigInteger.ONE.shiftLeft(StarlarkInt.MAX_BITS - 2));
    Value r = IntOps.binary(null, Token.STAR, top, StarlarkInt.of(2));
    assertThat(((StarlarkInt) r).bitLength()).isEqualTo(StarlarkInt.MAX_BITS);
  }

  @Test
  void repeatedLeftShiftsEndAtTheSizeLimit() {
    assertThat(budgetError("x = 1\nfor i in range(2000):\n    x = x << 511\n"))
        .isInstanceOf(SizeLimitException.class);
  }

  @Test
  void multiplyingBigIntsInALoopRunsOutOfSteps() {
    String body = bigInt(200_000) + "for i in range(1000000):\n    y = x * x\n";
    assertThat(budgetError(body)).isInstanceOf(StepLimitException.class);
  }

  @Test
  void dividingBigIntsInALoopRunsOutOfSteps() {
    String body =
        bigInt(500_000) + "h = x >> 250000\nfor i in range(1000000):\n    y = x // h + x % h\n";
    assertThat(budgetError(body)).isInstanceOf(StepLimitException.class);
  }

  @Test
  void addingAndNegatingBigIntsInALoopRunsOutOfSteps() {
    String body = bigInt(500_000) + "for i in range(1000000):\n    y = -x + abs(x) - ~x\n";
    assertThat(budgetError(body)).isInstanceOf(StepLimitException.class);
  }

  @Test
  void printingBigIntsInALoopRunsOutOfSteps() {
    String body = bigInt(500_000) + "for i in range(1000000):\n    s = str(x)\n";
    assertThat(budgetError(body)).isInstanceOf(StepLimitException.class);
  }

  @Test
  void formattingBigIntsInALoopRunsOutOfSteps() {
    String body = bigInt(500_000) + "for i in range(1000000):\n    s = '%d %x' % (x, x)\n";
    assertThat(budgetError(body)).isInstanceOf(StepLimitException.class);
  }

  @Test
  void printingAListOfBigIntsIsChargedPerElement() {
    String body = bigInt(500_000) + "return str([x + i for i in range(100)])\n";
    assertThat(budgetError(body)).isInstanceOf(StepLimitException.class);
  }

  @Test
  void encodingBigIntsAsJsonIsCharged() {
    String body = bigInt(500_000) + "return json.encode([x] * 100)\n";
    assertThat(budgetError(body)).isInstanceOf(StepLimitException.class);
  }

  @Test
  void parsingLongDigitStringsInALoopRunsOutOfSteps() {
    String body = "s = '9' * 150000\nfor i in range(1000000):\n    x = int(s)\n";
    assertThat(budgetError(body)).isInstanceOf(StepLimitException.class);
  }

  @Test
  void decodingLongJsonNumbersInALoopRunsOutOfSteps() {
    String body = "s = '9' * 150000\nfor i in range(1000000):\n    x = json.decode(s)\n";
    assertThat(budgetError(body)).isInstanceOf(StepLimitException.class);
  }

  @Test
  void tooManyDigitsAreRefusedBeforeParsing() {
    // a size error, not the step limit that charging the conversion first would hit
    assertThat(budgetError("return int('9' * 10000000)\n")).isInstanceOf(SizeLimitException.class);
  }

  @Test
  void tooLongAJsonNumberIsRefusedBeforeParsing() {
    assertThat(budgetError("return json.decode('9' * 200000)\n"))
        .isInstanceOf(SizeLimitException.class);
  }

  @Test
  void comparingBigIntsInALoopRunsOutOfSteps() {
    String body = bigInt(500_000) + "y = x + 0\nfor i in range(1000000):\n    b = x == y\n";
    assertThat(budgetError(body)).isInstanceOf(StepLimitException.class);
  }

  @Test
  void smallIntArithmeticCostsOneStepPerNodeAsBefore() throws Exception {
    run("return 3 * 4 + 5 // 2 - 7 % 3 << 2\n");
    long small = thread.steps();
    StarlarkThread other = new StarlarkThread("t");
    other.setMaxSteps(CODEMODE_STEPS);
    Program p =
        Starlark.compile(
            "<codemode>",
            "def main():\n    return 3 + 4 + 5 + 2 - 7 + 3 + 2\n",
            Dialect.CODEMODE,
            Set.of());
    Starlark.call(other, p.init(other, Map.of()).global("main"), List.of(), Map.of());
    assertThat(small).isEqualTo(other.steps());
  }

  @Test
  void aBigMultiplicationIsChargedByTheProductOfItsSizes() throws Exception {
    StarlarkInt x = StarlarkInt.of(BigInteger.ONE.shiftLeft(64 * 1024 - 1)); // 1024 words
    IntOps.binary(thread, Token.STAR, x, x);
    assertThat(thread.steps()).isEqualTo(1 + 2048 / 8 + 1024 * 1024 / 128);
  }

  @Test
  void ordinaryBigIntsStillComputeAndPrintAsGoDoes() throws Exception {
    assertThat(Starlark.toJava(run("return str(1 << 200)\n")))
        .isEqualTo(BigInteger.ONE.shiftLeft(200).toString());
    assertThat(Starlark.toJava(run("return '%x' % (1 << 100) + '%o' % -(1 << 70)\n")))
        .isEqualTo("10000000000000000000000000" + "-" + BigInteger.ONE.shiftLeft(70).toString(8));
    assertThat(Starlark.toJava(run("return int('1' + '0' * 3000) // int('1' + '0' * 2990)\n")))
        .isEqualTo(10_000_000_000L);
    assertThat(Starlark.toJava(run("return json.decode(json.encode([7 << 300]))[0] == 7 << 300\n")))
        .isEqualTo(true);
  }
}
