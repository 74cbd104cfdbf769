package dev.agentcompute.codemode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.codemode.authz.Subject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Execution rules of docs/reference/codemode.md not covered by ExecutionTest and
 * ExecutionContractTest: keyword binding (#arguments, R44-R48, R90), argument bounds (R49), output
 * conversion (R16, R54), value bytes (R58), safe details (#safe-detail, R74), isolation (#execute,
 * R38, R39) and cancellation while queued (R89).
 */
class ExecutionRulesTest {

  static final Subject USER = new Subject("user-1");
  static final ContractServer CAPS = new ContractServer();
  static Server server;

  @BeforeAll
  static void build() throws CodeModeException {
    server = CAPS.build(Limits.unset().withMaxExecutionTime(Duration.ofSeconds(20)));
  }

  @AfterAll
  static void close() {
    server.close();
  }

  static Object run(String body) throws CodeModeException {
    return ContractServer.run(server, USER, body);
  }

  static String fails(Server s, String body) {
    return ContractServer.failure(s, USER, body);
  }

  static String fails(String body) {
    return fails(server, body);
  }

  static final String QUERY =
      "records.query(tags=['a'], filter={'owner': 'o', 'states': []}, labels={})";

  @Test
  void keywordsMayComeFromDictUnpackingButNotTwice() throws CodeModeException {
    assertThat(run("return records.lookup(**{'key': 'a', 'limit': 3})"))
        .isEqualTo(Map.of("key", "a", "count", 3L));
    assertThat(fails("return records.lookup(key='a', **{'key': 'b'})"))
        .isEqualTo("invalid capability arguments: duplicate argument \"key\"");
    assertThat(fails("return records.lookup(**{1: 'a'})"))
        .as("the interpreter rejects non-string keywords")
        .isEqualTo("invalid program");
    assertThat(fails("return records.lookup(key='a', key='b')"))
        .startsWith("invalid program: <codemode>:2:")
        .contains("key");
  }

  @Test
  void scalarContainerAndPathDiagnostics() {
    assertThat(fails("return records.lookup(key='a', limit=1.5)"))
        .isEqualTo("invalid capability arguments: argument \"limit\" must be an integer or None");
    assertThat(fails("return " + QUERY.replace("tags=['a']", "tags='a'")))
        .isEqualTo("invalid capability arguments: argument \"tags\" must be a list");
    assertThat(fails("return " + QUERY.replace("tags=['a']", "tags=[None]")))
        .isEqualTo("invalid capability arguments: argument \"tags[0]\" must be a string");
    assertThat(fails("return " + QUERY.replace("filter={'owner': 'o', 'states': []}", "filter=3")))
        .isEqualTo("invalid capability arguments: argument \"filter\" must be a dict");
    assertThat(fails("return " + QUERY.replace("labels={}", "labels={1: 'x'}")))
        .isEqualTo("invalid capability arguments: argument \"labels\" keys must be strings");
    assertThat(fails("return " + QUERY.replace("labels={}", "labels={\"it's\": 1}")))
        .isEqualTo(
            "invalid capability arguments: argument \"labels[\\\"it's\\\"]\" must be a string");
    assertThat(
            fails("return " + QUERY.replace("'states': []", "'states': [], 'min_score': 'high'")))
        .isEqualTo(
            "invalid capability arguments: argument \"filter.min_score\" must be a float or None");
    assertThat(fails("return units.set(level=1, offset=0, ratio='x', bytes=[])"))
        .isEqualTo("invalid capability arguments: argument \"ratio\" must be a float");
    assertThat(fails("return narrow.get(on=1)"))
        .isEqualTo("invalid capability arguments: argument \"on\" must be a bool");
    assertThat(fails("return narrow.get(on=True, names=[1])"))
        .isEqualTo("invalid capability arguments: argument \"names[0]\" must be a string or None");
  }

  @Test
  void float32ArgumentsAreCanonicalizedAndNoneIsKeptForOptionalElements() throws CodeModeException {
    CAPS.requests.clear();
    Object v =
        run(
            "return [units.set(level=0, offset=0, ratio=16777217, bytes=[])['ratio'], "
                + "units.set(level=0, offset=0, ratio=1e-50, bytes=[])['ratio'], narrow.get(on=True, names=['a', None])['names']]");
    assertThat(v).isEqualTo(List.of(16777216.0, 0.0, Arrays.asList("a", null)));
    assertThat(CAPS.requests.get(0).arguments().get("ratio")).isEqualTo(16777216.0);
    assertThat(CAPS.requests.get(2).arguments())
        .isEqualTo(Map.of("on", true, "names", Arrays.asList("a", null)));
  }

  @Test
  void argumentsAreBoundedByTheNodeBudget() {
    assertThat(fails("return " + QUERY.replace("tags=['a']", "tags=['a'] * 2000000")))
        .isEqualTo("resource limit exceeded");
  }

  @Test
  void narrowOutputsNullsAndEmptiesConvertAsTheContractSays() throws CodeModeException {
    Map<String, Object> expected = new HashMap<>();
    expected.put("i", -7L);
    expected.put("s", 300L);
    expected.put("ub", 200L);
    expected.put("f", (double) 0.1f);
    expected.put("none", null);
    expected.put("absent", null);
    expected.put("nilList", null);
    expected.put("emptyMap", Map.of());
    expected.put("names", null);
    assertThat(run("return narrow.get(on=False)")).isEqualTo(expected);
  }

  @Test
  void valueBytesAreTheTypePreservingEncoding() throws CodeModeException {
    try (Server s = CAPS.build(Limits.unset().withMaxValueBytes(64))) {
      assertThat(s.execute(Context.background(), USER, "def main():\n    return 'x' * 62\n"))
          .isEqualTo("x".repeat(62));
      assertThat(fails(s, "return 'x' * 63"))
          .as("64 + 1 bytes with the quotes")
          .isEqualTo("resource limit exceeded");
      assertThat(fails(s, "return '<' * 11"))
          .as("each < is \\u003c: 68 bytes")
          .isEqualTo("resource limit exceeded");
      assertThat(s.execute(Context.background(), USER, "def main():\n    return [1.0] * 15\n"))
          .asList()
          .hasSize(15);
      assertThat(fails(s, "return [1.0] * 16"))
          .as("1.0 spelled with its .0: 65 bytes")
          .isEqualTo("resource limit exceeded");
    }
  }

  @Test
  void onlyTheFirstResolveErrorIsDisclosedAndRuntimeErrorsStayBare() {
    String first = fails("return undefined_one + undefined_two");
    assertThat(first)
        .startsWith("invalid program: <codemode>:2:")
        .contains("undefined_one")
        .doesNotContain("undefined_two");
    assertThat(fails("return {}['missing']")).isEqualTo("invalid program");
    assertThat(fails("return json.decode('{')")).isEqualTo("invalid program");
    assertThat(fails("return records.nope()")).isEqualTo("invalid program");
  }

  @Test
  void everyOneShotExecutionIsAFreshWorkerAndNothingCarriesOver() throws CodeModeException {
    assertThat(
            server.execute(
                Context.background(), USER, "SECRET = 'kept?'\ndef main():\n    return SECRET\n"))
        .isEqualTo("kept?");
    long before = server.workersStarted();
    for (int i = 0; i < 3; i++) {
      assertThatThrownBy(
              () -> server.execute(Context.background(), USER, "def main():\n    return SECRET\n"))
          .hasMessageStartingWith("invalid program: <codemode>:2:");
    }
    // Each execution takes a started spare and its replacement starts in the background, so the
    // count reaches before + 3 shortly after the third execution, never with a reused worker.
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
    while (server.workersStarted() < before + 3 && System.nanoTime() < deadline) {
      java.util.concurrent.locks.LockSupport.parkNanos(10_000_000);
    }
    assertThat(server.workersStarted())
        .as("three executions took three workers")
        .isGreaterThanOrEqualTo(before + 3);
    assertThatThrownBy(() -> server.execute(Context.background(), USER, "#" + "é".repeat(32_768)))
        .as("65,537 UTF-8 bytes in 32,769 chars")
        .hasMessage("resource limit exceeded");
  }

  @Test
  void cancellationWhileQueuedSpawnsNothing() throws Exception {
    ContractServer caps = new ContractServer();
    try (Server s =
        caps.build(
            Limits.unset()
                .withMaxConcurrentExecutions(1)
                .withMaxExecutionTime(Duration.ofSeconds(20)))) {
      CompletableFuture<String> holder =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return String.valueOf(
                      s.execute(
                          Context.background(),
                          new Subject("a"),
                          "def main():\n    return slow.wait(millis=1500)\n"));
                } catch (CodeModeException e) {
                  return e.clientText();
                }
              });
      assertThat(caps.slowStarted.await(20, TimeUnit.SECONDS)).isTrue();
      Spares.awaitFull(s, 1);
      long started = s.workersStarted();
      Context ctx = Context.background().withCancel();
      CompletableFuture<String> queued =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return String.valueOf(
                      s.execute(ctx, new Subject("b"), "def main():\n    return 1\n"));
                } catch (CodeModeException e) {
                  return e.clientText();
                }
              });
      Thread.sleep(200);
      ctx.cancel();
      assertThat(queued.get(20, TimeUnit.SECONDS)).isEqualTo("context canceled");
      assertThat(s.workersStarted()).isEqualTo(started);
      assertThat(holder.get(20, TimeUnit.SECONDS)).isEqualTo("{ok=true}");
    }
  }

  @Test
  void concurrentCallersGetTheirOwnResults() throws Exception {
    List<CompletableFuture<Object>> all = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      String key = "k" + i;
      all.add(
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return server.execute(
                      Context.background(),
                      new Subject("s" + key),
                      "def main():\n    return records.lookup(key='" + key + "')['key']\n");
                } catch (CodeModeException e) {
                  return e.clientText();
                }
              }));
    }
    for (int i = 0; i < 6; i++) {
      assertThat(all.get(i).get(60, TimeUnit.SECONDS)).isEqualTo("k" + i);
    }
  }
}
