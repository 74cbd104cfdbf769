package dev.agentcompute.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.codemode.ExecuteIds;
import dev.agentcompute.codemode.mcp.CodeModeMcp;
import dev.agentcompute.server.mcp.TransportContextKeys;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class RunningExecutesTest {
  private final RunningExecutes running = new RunningExecutes(Clock.systemUTC());
  private final CountDownLatch started = new CountDownLatch(1);

  /** An execute that runs until its caller is gone, as CodeMode's does when its context ends. */
  private McpServerFeatures.SyncToolSpecification execute() {
    return McpServerFeatures.SyncToolSpecification.builder()
        .tool(
            McpSchema.Tool.builder()
                .name("execute")
                .inputSchema(McpJsonDefaults.getMapper(), "{\"type\":\"object\"}")
                .build())
        .callHandler(
            (exchange, request) -> {
              var ctx = exchange.transportContext();
              var watch = (ExecuteWatch) ctx.get(CodeModeMcp.OBSERVER_CONTEXT_KEY);
              watch.callStarted("instance.exec", 2);
              started.countDown();
              ((CompletableFuture<?>) ctx.get(CodeModeMcp.CANCELLATION_CONTEXT_KEY)).join();
              return McpSchema.CallToolResult.builder()
                  .isError(true)
                  .addTextContent("context canceled")
                  .build();
            })
        .build();
  }

  private static McpSyncServerExchange exchange(String subject, CompletableFuture<Void> gone) {
    McpTransportContext context =
        McpTransportContext.create(
            Map.of(
                TransportContextKeys.SUBJECT,
                subject,
                TransportContextKeys.SESSION_ID,
                "session-1",
                CodeModeMcp.CANCELLATION_CONTEXT_KEY,
                gone,
                CodeModeMcp.OBSERVER_CONTEXT_KEY,
                new ExecuteWatch(gone)));
    return new McpSyncServerExchange(null) {
      @Override
      public McpTransportContext transportContext() {
        return context;
      }
    };
  }

  private CompletableFuture<McpSchema.CallToolResult> startExecute(String subject) {
    McpServerFeatures.SyncToolSpecification tool = running.wrap(List.of(execute())).getFirst();
    CompletableFuture<Void> gone = new CompletableFuture<>();
    return CompletableFuture.supplyAsync(
        () ->
            tool.callHandler()
                .apply(
                    exchange(subject, gone), new McpSchema.CallToolRequest("execute", Map.of())));
  }

  @Test
  void aRunningExecuteIsListedWithItsCallInProgressAndCancelEndsIt() throws Exception {
    var result = startExecute("bob");
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

    List<RunningExecutes.View> list = running.list();
    assertThat(list).hasSize(1);
    RunningExecutes.View v = list.getFirst();
    assertThat(v.id()).matches("ex-[0-9a-f]{22}");
    assertThat(v.subject()).isEqualTo("bob");
    assertThat(v.session()).isEqualTo("session-1");
    assertThat(v.currentCall()).isEqualTo("instance.exec");
    assertThat(v.callsCompleted()).isEqualTo(2);
    assertThat(v.cancellable()).isTrue();

    assertThat(running.cancel(v.id())).isEqualTo(RunningExecutes.Cancel.CANCELED);
    assertThat(result.get(10, TimeUnit.SECONDS).isError()).isTrue();
    assertThat(running.list()).isEmpty();
    assertThat(running.cancel(v.id())).isEqualTo(RunningExecutes.Cancel.NOT_RUNNING);
  }

  @Test
  void revokingASubjectCancelsItsExecutes() throws Exception {
    var result = startExecute("carol");
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(running.cancelSubjects(Set.of("dave"))).isZero();
    assertThat(running.cancelSubjects(Set.of("carol"))).isEqualTo(1);
    result.get(10, TimeUnit.SECONDS);
    assertThat(running.list()).isEmpty();
  }

  @Test
  void otherToolsAreNotTracked() {
    var other =
        McpServerFeatures.SyncToolSpecification.builder()
            .tool(
                McpSchema.Tool.builder()
                    .name("search_api")
                    .inputSchema(McpJsonDefaults.getMapper(), "{\"type\":\"object\"}")
                    .build())
            .callHandler((e, r) -> McpSchema.CallToolResult.builder().build())
            .build();
    assertThat(running.wrap(List.of(other)).getFirst()).isSameAs(other);
  }

  @Test
  void idsSortByStartTime() {
    String a = ExecuteIds.next();
    String b = ExecuteIds.next();
    assertThat(a).startsWith("ex-");
    assertThat(a.compareTo(b)).isNegative();
  }
}
