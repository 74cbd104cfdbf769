package dev.agentcompute.codemode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.codemode.authz.AccessRequest;
import dev.agentcompute.codemode.authz.Subject;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ExecutionContractTest {

  static final Subject USER = new Subject("user-1");
  static final ContractServer CAPS = new ContractServer();
  static Server server;

  @BeforeAll
  static void build() throws CodeModeException {
    // Generous: on a loaded 2-core machine a worker can take seconds to answer, and a budget
    // exceeded here would turn every expected text into "resource limit exceeded". The tests of
    // the time limit build their own servers.
    server = CAPS.build(Limits.unset().withMaxExecutionTime(Duration.ofSeconds(30)));
  }

  @AfterAll
  static void close() {
    server.close();
  }

  static Object run(String body) throws CodeModeException {
    return ContractServer.run(server, USER, body);
  }

  static String fails(String body) {
    return fails(server, body);
  }

  static String fails(Server s, String body) {
    return ContractServer.failure(s, USER, body);
  }

  @Test
  void languageSurface() throws CodeModeException {
    assertThat(
            run(
                "return [sum([1, 2, 3]), sum([]), json.encode({'b': 1, 'a': [2.0]}), math.floor(2.5), type(records), "
                    + "sorted(dir(records))]"))
        .isEqualTo(
            List.of(6L, 0L, "{\"a\":[2.0],\"b\":1}", 2L, "module", List.of("lookup", "query")));
    assertThat(fails("return sum([True])")).isEqualTo("invalid program");
    assertThat(fails("return hasattr(json, 'encode_indent') and 1 or fail('x')"))
        .isEqualTo("invalid program");
  }

  @Test
  void dialectRules() {
    assertThat(fails("x = set([1])\nreturn x")).startsWith("invalid program: <codemode>:");
    assertThat(fails("i = 0\nwhile i < 1:\n    i += 1\nreturn i"))
        .startsWith("invalid program: <codemode>:");
    assertThat(fails("return records.lookup(key='a', key='b')"))
        .startsWith("invalid program: <codemode>:");
    try {
      server.execute(Context.background(), USER, "x = 1\nx = 2\ndef main():\n    return x\n");
      throw new AssertionError("global reassignment accepted");
    } catch (CodeModeException e) {
      assertThat(e.clientText()).startsWith("invalid program: <codemode>:2:");
    }
    try {
      server.execute(
          Context.background(), USER, "def f(n):\n    return f(n)\ndef main():\n    return f(1)\n");
      throw new AssertionError("recursion accepted");
    } catch (CodeModeException e) {
      assertThat(e.clientText()).isEqualTo("invalid program");
    }
  }

  @Test
  void entryPointRules() {
    for (String src :
        List.of(
            "x = 1\n",
            "main = 1\n",
            "def main(x=1):\n    pass\n",
            "def main(*, k=1):\n    pass\n",
            "def main(*a):\n    pass\n",
            "def main(**k):\n    pass\n")) {
      assertThatThrownBy(() -> server.execute(Context.background(), USER, src))
          .as(src)
          .hasMessage("invalid program");
    }
  }

  @Test
  void helpersMayCallCapabilitiesAndOnlyMainsValueIsReturned() throws CodeModeException {
    Object v =
        server.execute(
            Context.background(),
            USER,
            "def helper():\n    return records.lookup(key='h')\nG = [1]\ndef main():\n    print('hidden')\n    return helper()\n");
    assertThat(v).isEqualTo(Map.of("count", 0L, "key", "h"));
    assertThat(server.execute(Context.background(), USER, "m = lambda: 7\nmain = m\n"))
        .isEqualTo(7L);
  }

  @Test
  void bindingDiagnostics() {
    String q = "records.query(tags=['a'], filter={'owner': 'o', 'states': []}, labels={})";
    assertThat(fails("return " + q.replace("'owner': 'o'", "'owner': 1")))
        .isEqualTo("invalid capability arguments: argument \"filter.owner\" must be a string");
    assertThat(fails("return " + q.replace("tags=['a']", "tags=['a', 2]")))
        .isEqualTo("invalid capability arguments: argument \"tags[1]\" must be a string");
    assertThat(fails("return " + q.replace("labels={}", "labels={'env': 3}")))
        .isEqualTo("invalid capability arguments: argument \"labels['env']\" must be a string");
    assertThat(fails("return " + q.replace("'states': []", "'states': [], 'x': 1")))
        .isEqualTo("invalid capability arguments: unknown argument \"filter.x\"");
    assertThat(fails("return " + q.replace(", 'states': []", "")))
        .isEqualTo("invalid capability arguments: missing required argument \"filter.states\"");
    assertThat(fails("return " + q.replace("labels={}", "labels={}, window={'from': 'a'}")))
        .isEqualTo(
            "invalid capability arguments: missing required argument \"window['until-day']\"");
    assertThat(fails("return " + q.replace("labels={}", "labels={}, window=3")))
        .isEqualTo("invalid capability arguments: argument \"window\" must be a dict or None");
    assertThat(fails("return records.lookup(key='a', limit='x')"))
        .isEqualTo("invalid capability arguments: argument \"limit\" must be an integer or None");
    assertThat(fails("return records.lookup(key='a', limit=True)"))
        .isEqualTo("invalid capability arguments: argument \"limit\" must be an integer or None");
    assertThat(fails("return records.lookup(key='a', limit=1 << 64)"))
        .isEqualTo("invalid capability arguments: argument \"limit\" overflows int64");
    assertThat(fails("return records.lookup()"))
        .isEqualTo("invalid capability arguments: missing required argument \"key\"");
    assertThat(fails("return units.set(level=256, offset=0, ratio=1.0, bytes=[])"))
        .isEqualTo("invalid capability arguments: argument \"level\" must be between 0 and 255");
    assertThat(fails("return units.set(level=1, offset=1 << 40, ratio=1.0, bytes=[])"))
        .isEqualTo(
            "invalid capability arguments: argument \"offset\" must be between -2147483648 and 2147483647");
    assertThat(fails("return units.set(level=1, offset=0, ratio=1e39, bytes=[])"))
        .isEqualTo("invalid capability arguments: argument \"ratio\" overflows float32");
    assertThat(fails("return units.set(level=1, offset=0, ratio=float('inf'), bytes=[])"))
        .isEqualTo("invalid capability arguments: argument \"ratio\" is not finite");
    assertThat(fails("return units.set(level=1, offset=0, ratio=1.0, bytes=[300])"))
        .isEqualTo("invalid capability arguments: argument \"bytes[0]\" must be between 0 and 255");
  }

  @Test
  void canonicalArgumentsAndNarrowTypes() throws CodeModeException {
    CAPS.requests.clear();
    Object v = run("return units.set(level=255, offset=-5, ratio=1, bytes=(0, 255))");
    assertThat(v)
        .isEqualTo(Map.of("level", 255L, "offset", -5L, "ratio", 1.0, "bytes", List.of(0L, 255L)));
    assertThat(CAPS.requests.getLast().arguments())
        .isEqualTo(Map.of("level", 255L, "offset", -5L, "ratio", 1.0, "bytes", List.of(0L, 255L)));
    run("return records.lookup(key='k', limit=None)");
    assertThat(CAPS.requests.getLast().arguments()).isEqualTo(Map.of("key", "k"));
    assertThat(CAPS.requests.getLast().operation()).isEqualTo("records.entry.lookup");
    assertThat(CAPS.requests.getLast().kind()).isEqualTo(AccessRequest.Kind.EXECUTE);
    assertThat(run("return units.set(level=1, offset=0, ratio=0.1, bytes=[])"))
        .isInstanceOfSatisfying(
            Map.class, m -> assertThat(m.get("ratio")).isEqualTo((double) 0.1f));
  }

  @Test
  void authorizationAndHandlerOutcomes() {
    assertThat(fails("return records.lookup(key='forbidden')")).isEqualTo("permission denied");
    assertThat(fails("return records.lookup(key='policy-error')"))
        .isEqualTo("authorization policy failure");
    assertThat(fails("return records.lookup(key='policy-throw')"))
        .isEqualTo("authorization policy failure");
    assertThat(fails("return errors.fail(mode='plain', message='secret')"))
        .isEqualTo("capability failed");
    assertThat(fails("return errors.fail(mode='agent', message='no such\\tkey')"))
        .isEqualTo("capability failed: no such key");
    assertThat(fails("return errors.fail(mode='wrapped', message='shown')"))
        .isEqualTo("capability failed: shown");
    assertThat(fails("return errors.fail(mode='agent', message='')"))
        .isEqualTo("capability failed");
    assertThat(fails("return errors.fail(mode='throw', message='bug')"))
        .isEqualTo("internal failure");
    assertThat(fails("return errors.score()")).isEqualTo("capability failed");
    assertThat(fails("return errors.big()")).isEqualTo("capability failed");
  }

  @Test
  void resultsAreFreshMutableValuesWithSortedKeys() throws CodeModeException {
    assertThat(
            run(
                "r = rich.get()\nr['extra'] = 1\nreturn [list(r.keys()), r['detail'], r['names'], r['data'], r['flags']]"))
        .isEqualTo(
            Arrays.asList(
                List.of("data", "detail", "flags", "items", "names", "extra"),
                Map.of("value", "v"),
                null,
                List.of(255L, 1L),
                Map.of("a", false, "b", true)));
  }

  @Test
  void finalValueRules() {
    assertThat(fails("return range(3)")).isEqualTo("invalid program");
    assertThat(fails("return b'x'")).isEqualTo("invalid program");
    assertThat(fails("return {1: 2}")).isEqualTo("invalid program");
    assertThat(fails("return 1 << 64")).isEqualTo("invalid program");
    assertThat(fails("return float('nan')")).isEqualTo("invalid program");
    assertThat(fails("x = []\nx.append(x)\nreturn x")).isEqualTo("invalid program");
    assertThat(fails("return records")).isEqualTo("invalid program");
  }

  @Test
  void valueDepthAndBytes() throws CodeModeException {
    try (Server s = CAPS.build(Limits.unset().withMaxValueDepth(2).withMaxValueBytes(64))) {
      assertThat(s.execute(Context.background(), USER, "def main():\n    return [1]\n"))
          .isEqualTo(List.of(1L));
      assertThat(fails(s, "return [[1]]")).isEqualTo("resource limit exceeded");
      assertThat(fails(s, "return 'x' * 100")).isEqualTo("resource limit exceeded");
      assertThat(fails(s, "return deep.get()")).isEqualTo("resource limit exceeded");
      assertThat(fails(s, "return blob.get(size=100)")).isEqualTo("resource limit exceeded");
      assertThat(
              fails(
                  s,
                  "return records.query(tags=[], filter={'owner': 'o', 'states': [['x']]}, labels={})"))
          .isEqualTo("resource limit exceeded");
    }
  }

  @Test
  void intermediateBudgetCountsDiscardedResults() throws CodeModeException {
    try (Server s = CAPS.build(Limits.unset().withMaxIntermediateValueBytes(300))) {
      assertThat(
              s.execute(
                  Context.background(),
                  USER,
                  "def main():\n    blob.get(size=100)\n    return 1\n"))
          .isEqualTo(1L);
      assertThat(fails(s, "blob.get(size=100)\nblob.get(size=100)\nblob.get(size=100)\nreturn 1"))
          .isEqualTo("resource limit exceeded");
    }
  }

  @Test
  void nativeCallAttemptsAreCountedBeforeBinding() throws CodeModeException {
    try (Server s = CAPS.build(Limits.unset().withMaxNativeCalls(2))) {
      assertThat(fails(s, "health.status()\nhealth.status()\nreturn health.status()"))
          .isEqualTo("resource limit exceeded");
      assertThat(
              s.execute(
                  Context.background(),
                  USER,
                  "def main():\n    health.status()\n    return health.status()\n"))
          .isEqualTo(Map.of("state", "ok"));
    }
  }

  @Test
  void deadlineKillsTheWorker() throws CodeModeException {
    try (Server s =
        CAPS.build(
            Limits.unset()
                .withMaxExecutionTime(Duration.ofMillis(700))
                .withMaxExecutionSteps(1000000000000L))) {
      long start = System.nanoTime();
      try {
        s.execute(
            Context.background(),
            USER,
            "def main():\n    for i in range(1 << 30):\n        for j in range(1 << 30):\n            pass\n");
        throw new AssertionError("loop finished");
      } catch (CodeModeException e) {
        assertThat(e.clientText()).isEqualTo("resource limit exceeded");
        assertThat(e.deadlineExceeded()).isTrue();
      }
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(3000);
      assertThat(s.liveWorkers()).isLessThanOrEqualTo(8);
      assertThat(fails(s, "return slow.wait(millis=5000)")).isEqualTo("resource limit exceeded");
    }
  }

  @Test
  void cancellationEndsTheExecution() throws Exception {
    Context ctx = Context.background().withCancel();
    CompletableFuture<String> outcome =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                server.execute(ctx, USER, "def main():\n    return slow.wait(millis=20000)\n");
                return "finished";
              } catch (CodeModeException e) {
                return e.clientText();
              }
            });
    assertThat(CAPS.slowStarted.await(20, TimeUnit.SECONDS)).isTrue();
    ctx.cancel();
    assertThat(outcome.get(10, TimeUnit.SECONDS)).isEqualTo("context canceled");
    Context canceled = Context.background().withCancel();
    canceled.cancel();
    assertThatThrownBy(() -> server.execute(canceled, USER, "def main():\n    return 1\n"))
        .hasMessage("context canceled");
  }

  @Test
  void hostileProgramsEndAloneWhileOthersKeepWorking() throws Exception {
    // A generous deadline: on a loaded 2-core machine concurrent worker starts take seconds.
    try (Server s = CAPS.build(Limits.unset().withMaxExecutionTime(Duration.ofSeconds(30)))) {
      hostilePrograms(s);
    }
  }

  private static void hostilePrograms(Server s) throws Exception {
    Map<String, String> hostile = new HashMap<>();
    hostile.put(
        "loop", "for i in range(1 << 30):\n    for j in range(1 << 30):\n        pass\nreturn 1");
    hostile.put("allocate", "x = ['y' * 1000]\nfor i in range(40):\n    x = x + x\nreturn len(x)");
    hostile.put("json", "return json.decode('[' * 100000 + ']' * 100000)");
    hostile.put("flood", "for i in range(1000):\n    health.status()\nreturn 1");
    Map<String, CompletableFuture<String>> running = new java.util.TreeMap<>();
    hostile.forEach(
        (name, body) -> running.put(name, CompletableFuture.supplyAsync(() -> fails(s, body))));
    for (int i = 0; i < 3; i++) {
      assertThat(s.execute(Context.background(), USER, "def main():\n    return health.status()\n"))
          .isEqualTo(Map.of("state", "ok"));
    }
    Map<String, String> outcomes = new java.util.TreeMap<>();
    for (Map.Entry<String, CompletableFuture<String>> f : running.entrySet()) {
      outcomes.put(f.getKey(), f.getValue().get(30, TimeUnit.SECONDS));
    }
    assertThat(outcomes)
        .containsEntry("loop", "resource limit exceeded")
        .containsEntry("flood", "resource limit exceeded")
        .containsEntry("allocate", "resource limit exceeded")
        .containsEntry("json", "resource limit exceeded");
    assertThat(s.execute(Context.background(), USER, "def main():\n    return 1\n")).isEqualTo(1L);
  }

  @Test
  void workerHeapExhaustionIsAResourceLimit() throws CodeModeException {
    try (Server s =
        CAPS.build(
            Limits.unset().withMaxWorkerMemoryBytes(32L << 20).withMaxExecutionSteps(1000000000))) {
      assertThat(
              fails(
                  s,
                  "x = []\nfor i in range(100000000):\n    x.append([i, str(i)])\nreturn len(x)"))
          .isEqualTo("resource limit exceeded");
      assertThat(s.execute(Context.background(), USER, "def main():\n    return 2\n"))
          .isEqualTo(2L);
    }
  }
}
