package dev.agentcompute.examples.records;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Limits;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.authz.Subject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class RecordsServerTest {

  static Server server;

  /** A generous deadline: a freshly built server's first executions wait for worker JVMs. */
  static final Limits LIMITS = Limits.unset().withMaxExecutionTime(Duration.ofSeconds(60));

  @BeforeAll
  static void build() throws Exception {
    server = RecordsServer.build(RecordsServer.authorizer("deny-forbidden"), LIMITS);
  }

  @AfterAll
  static void close() {
    server.close();
  }

  static Object run(Server s, String body) throws CodeModeException {
    return s.execute(
        Context.background(), new Subject("local-user"), "def main():\n" + body.indent(4));
  }

  static String fails(Server s, String body) {
    try {
      run(s, body);
    } catch (CodeModeException e) {
      return e.clientText();
    }
    throw new AssertionError("succeeded: " + body);
  }

  @Test
  void capabilitiesBehaveAsDocumented() throws Exception {
    assertThat(run(server, "return records.lookup(key='a')"))
        .isEqualTo(Map.of("key", "a", "count", 0L));
    assertThat(run(server, "return health.status()")).isEqualTo(Map.of("state", "ok"));
    assertThat(
            run(
                server,
                "return records.query(tags=['x', 'y'], filter={'owner': 'o', 'states': [], 'min_score': 1}, "
                    + "labels={'env': 'prod'}, window={'from': 'a', 'until-day': 'b'})"))
        .isEqualTo(Map.of("owner", "o", "tag_count", 2L));
    assertThat(run(server, "return sink.put(data=blob.get(size=5)['data'])"))
        .isEqualTo(Map.of("n", 5L));
    assertThat(run(server, "return units.set(level=255, offset=-1, ratio=0.5, bytes=[0, 255])"))
        .isEqualTo(Map.of("ok", true));
    assertThat(run(server, "return stats.sum(value='v')")).isEqualTo(Map.of("value", "v"));
    assertThat(server.describe(Context.background(), new Subject("u"), "records.query").signature())
        .isEqualTo(
            "records.query(*, tags: list[str], filter: {owner: str, states: list[str], min_score: float | None}, "
                + "labels: dict[str, str], window: {from: str, \"until-day\": str} | None)");
  }

  @Test
  void failuresReadAsTheContractSays() throws Exception {
    assertThat(fails(server, "return records.hidden(key='a')")).isEqualTo("invalid program");
    assertThat(fails(server, "return records.lookup(key='forbidden')"))
        .isEqualTo("permission denied");
    assertThat(fails(server, "return errors.fail(mode='plain', message='secret')"))
        .isEqualTo("capability failed");
    assertThat(fails(server, "return errors.fail(mode='agent', message='tell the model')"))
        .isEqualTo("capability failed: tell the model");
    assertThat(fails(server, "return errors.fail(mode='wrapped', message='inner')"))
        .isEqualTo("capability failed: inner");
    assertThat(fails(server, "return errors.fail(mode='throw', message='bug')"))
        .isEqualTo("internal failure");
    assertThat(fails(server, "return errors.score(score=1.5)")).isEqualTo("capability failed");
    assertThat(fails(server, "return errors.big(n=1)")).isEqualTo("capability failed");
    assertThat(fails(server, "return blob.get(size=2000000)")).isEqualTo("resource limit exceeded");
    assertThat(fails(server, "return units.set(level=256, offset=0, ratio=1.0, bytes=[])"))
        .isEqualTo("invalid capability arguments: argument \"level\" must be between 0 and 255");
    for (String mode : List.of("error", "throw")) {
      try (Server s = RecordsServer.build(RecordsServer.authorizer(mode), LIMITS)) {
        assertThat(fails(s, "return records.lookup(key='a')"))
            .isEqualTo("authorization policy failure");
      }
    }
    assertThat(server.search(Context.background(), new Subject("u"), "hidden record").results())
        .noneMatch(r -> r.name().equals("records.hidden"));
  }
}
