package dev.agentcompute.codemode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.agentcompute.codemode.authz.Subject;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Big-int arithmetic is bounded by the interpreter's own budgets
 * (docs/reference/starlark.md#budgets): a program that squares an int forty times (its value would
 * have 1.7e12 bits) ran for minutes of CPU inside the default 1,000,000-step budget, until the 5 s
 * deadline killed its worker.
 */
class HostileArithmeticTest {
  static final Subject USER = new Subject("user-1");
  static Server server;

  @BeforeAll
  static void build() throws CodeModeException {
    // The default step budget (1,000,000) with a deadline far beyond it: the size limit must end
    // the program, and a loaded machine must not let the deadline reach it first.
    server =
        new ContractServer().build(Limits.unset().withMaxExecutionTime(Duration.ofSeconds(60)));
  }

  @AfterAll
  static void close() {
    server.close();
  }

  @Test
  void squaringAnIntFortyTimesEndsAsAResourceLimitOfTheInterpreterNotOfTheDeadline() {
    String body = "x = 3\n" + "x = x * x\n".repeat(40) + "return 0\n";
    CodeModeException e =
        catchThrowableOfType(CodeModeException.class, () -> ContractServer.run(server, USER, body));
    assertThat(e).as("the program must fail").isNotNull();
    assertThat(e.clientText()).isEqualTo("resource limit exceeded");
    assertThat(e.deadlineExceeded())
        .as("ended by the interpreter's size limit, well before the 60 s deadline")
        .isFalse();
  }
}
