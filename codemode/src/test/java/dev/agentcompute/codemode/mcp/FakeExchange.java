package dev.agentcompute.codemode.mcp;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** An SDK exchange whose client answers elicitations as told and records progress. */
final class FakeExchange extends McpSyncServerExchange {

  final List<McpSchema.ElicitRequest> elicited = new CopyOnWriteArrayList<>();
  final List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
  private final Function<McpSchema.ElicitRequest, McpSchema.ElicitResult> client;

  FakeExchange(
      McpSchema.ClientCapabilities capabilities,
      Function<McpSchema.ElicitRequest, McpSchema.ElicitResult> client) {
    super(new McpAsyncServerExchange("s", null, capabilities, null, McpTransportContext.EMPTY));
    this.client = client;
  }

  /** A client that declared form elicitation and answers with {@code client}. */
  static FakeExchange eliciting(Function<McpSchema.ElicitRequest, McpSchema.ElicitResult> client) {
    return new FakeExchange(
        McpSchema.ClientCapabilities.builder().elicitation(true, false).build(), client);
  }

  /** A client that declared no elicitation. */
  static FakeExchange plain() {
    return new FakeExchange(McpSchema.ClientCapabilities.builder().build(), r -> null);
  }

  @Override
  public McpSchema.ElicitResult createElicitation(McpSchema.ElicitRequest request) {
    elicited.add(request);
    return client.apply(request);
  }

  @Override
  public void progressNotification(McpSchema.ProgressNotification notification) {
    progress.add(notification);
  }
}
