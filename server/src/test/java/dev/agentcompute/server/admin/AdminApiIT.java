package dev.agentcompute.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.server.cli.AdminCli;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin API on the real server and incusd: an agent (bob) creates a sandbox and runs a long
 * execute; the operator (alice) sees both, extends the sandbox, cancels the execute (its worker
 * stops and bob gets "context canceled"), deletes the sandbox, reads the audit records back, and
 * revokes bob by reloading the token file (bob's open session then fails at once).
 */
@Timeout(300)
class AdminApiIT {
  @TempDir Path dir;
  private ServerProcess server;
  private final String sandbox = "adminit" + Long.toHexString(System.nanoTime() & 0xffffff);

  @BeforeEach
  void start() throws Exception {
    server = new ServerProcess(dir);
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      try {
        server.send("DELETE", "/admin/sandboxes/" + sandbox, ServerProcess.ALICE, null);
      } finally {
        server.close();
      }
    }
  }

  private static String field(String json, String key) {
    Matcher m = Pattern.compile("\"" + key + "\":\"([^\"]*)\"").matcher(json);
    assertThat(m.find()).as("%s in %s", key, json).isTrue();
    return m.group(1);
  }

  @Test
  void anOperatorSeesExtendsCancelsDeletesAuditsAndRevokes() throws Exception {
    // Bob's requests give up after 20 s: after the cancel his client never gets the execute's
    // reply (a known defect, docs/operations.md#administration), and a request after his token was
    // revoked is then only failed by this timeout instead of waiting three minutes.
    McpSyncClient bob = server.mcp(ServerProcess.BOB, java.time.Duration.ofSeconds(20));
    McpSchema.CallToolResult created =
        ServerProcess.execute(
            bob,
            "def main():\n    return sandbox.create(name=\"%s\", ttl_minutes=30)\n"
                .formatted(sandbox));
    assertThat(created.isError()).as("%s", created.content()).isNotEqualTo(Boolean.TRUE);

    // An agent is no operator.
    HttpResponse<String> refused = server.send("GET", "/admin/sandboxes", ServerProcess.BOB, null);
    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(refused.body()).contains("admin.operators");

    // Every identity's sandboxes, with owner, expiry and instance count.
    String list = server.send("GET", "/admin/sandboxes", ServerProcess.ALICE, null).body();
    assertThat(list)
        .contains("\"name\":\"" + sandbox + "\",\"owner\":\"bob\",\"platform\":\"incus\"")
        .contains("\"instance_count\":0");
    Instant before =
        Instant.parse(field(list.substring(list.indexOf("\"name\":\"" + sandbox)), "expires_at"));

    // The CLI shows the same list.
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status =
        AdminCli.run(
            List.of("sandboxes", "--url", server.url),
            Map.of("AGENTCOMPUTE_ADMIN_TOKEN", ServerProcess.ALICE),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            System.err);
    assertThat(status).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains(sandbox + "  bob  incus  ");

    HttpResponse<String> extended =
        server.send(
            "POST",
            "/admin/sandboxes/" + sandbox + "/extend",
            ServerProcess.ALICE,
            "{\"duration\": \"2h\"}");
    assertThat(extended.statusCode()).as(extended.body()).isEqualTo(200);
    assertThat(Instant.parse(field(extended.body(), "expires_at")))
        .isAfter(before.plusSeconds(80 * 60));

    // A long execute: many native calls, one after another.
    CompletableFuture<McpSchema.CallToolResult> running =
        CompletableFuture.supplyAsync(
            () ->
                ServerProcess.execute(
                    bob, "def main():\n    for i in range(900):\n        sandbox.list()\n"));
    String id = null;
    for (int i = 0; i < 300 && id == null; i++) {
      String executes = server.send("GET", "/admin/executes", ServerProcess.ALICE, null).body();
      if (executes.contains("\"current_call\":\"sandbox.list\"")) {
        assertThat(executes).contains("\"subject\":\"bob\"").contains("\"cancellable\":true");
        id = field(executes, "id");
      }
      Thread.sleep(100);
    }
    assertThat(id).as("the running execute was listed with its call").isNotNull().startsWith("ex-");
    long cancelAt = System.nanoTime();
    HttpResponse<String> canceled =
        server.send("POST", "/admin/executes/" + id + "/cancel", ServerProcess.ALICE, null);
    assertThat(canceled.statusCode()).as(canceled.body()).isEqualTo(200);
    // The execute ends on the server: it leaves the list (its worker was killed).
    String after = "";
    for (int i = 0; i < 150; i++) {
      after = server.send("GET", "/admin/executes", ServerProcess.ALICE, null).body();
      if (after.equals("{\"executes\":[]}")) {
        break;
      }
      Thread.sleep(100);
    }
    System.out.println(
        "execute gone from the list "
            + (System.nanoTime() - cancelAt) / 1_000_000
            + " ms after the cancel");
    assertThat(after).isEqualTo("{\"executes\":[]}");
    assertThat(
            server
                .send("POST", "/admin/executes/" + id + "/cancel", ServerProcess.ALICE, null)
                .statusCode())
        .isEqualTo(404);
    running.cancel(true);

    HttpResponse<String> deleted =
        server.send("DELETE", "/admin/sandboxes/" + sandbox, ServerProcess.ALICE, null);
    assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
    assertThat(server.send("GET", "/admin/sandboxes", ServerProcess.ALICE, null).body())
        .doesNotContain("\"" + sandbox + "\"");
    assertThat(
            server
                .send("DELETE", "/admin/sandboxes/" + sandbox, ServerProcess.ALICE, null)
                .statusCode())
        .isEqualTo(404);

    String audit =
        server.send("GET", "/admin/audit?subject=alice&limit=20", ServerProcess.ALICE, null).body();
    assertThat(audit)
        .contains("\"action\":\"sandbox.extend\",\"target\":\"" + sandbox + "\",\"outcome\":\"ok\"")
        .contains("\"action\":\"execute.cancel\",\"target\":\"" + id + "\",\"outcome\":\"ok\"")
        .contains(
            "\"action\":\"sandbox.delete\",\"target\":\"" + sandbox + "\",\"outcome\":\"ok\"");
    assertThat(server.send("GET", "/admin/audit?subject=bob", ServerProcess.ALICE, null).body())
        .contains("\"kind\":\"native_call\",\"subject\":\"bob\",\"action\":\"sandbox.create\"");

    // Bob's token removed from the file: the reload names him, and his open session fails.
    Files.writeString(server.tokens, "{\"alice\": \"" + ServerProcess.ALICE + "\"}");
    HttpResponse<String> reloaded =
        server.send("POST", "/admin/tokens/reload", ServerProcess.ALICE, null);
    assertThat(reloaded.body()).isEqualTo("{\"identities\":[\"alice\"],\"revoked\":[\"bob\"]}");
    assertThat(server.send("GET", "/admin/executes", ServerProcess.BOB, null).statusCode())
        .isEqualTo(401);
    boolean bobFailed;
    try {
      bob.listTools();
      bobFailed = false;
    } catch (RuntimeException expected) {
      bobFailed = true;
    }
    assertThat(bobFailed).as("bob's session after his token was revoked").isTrue();
    assertThat(server.log()).anyMatch(l -> l.contains("revoked identities disconnected"));
    bob.close();
  }

  @Test
  void aTokenRemovedFromTheFileStopsWorkingWithoutAReloadCall() throws Exception {
    McpSyncClient bob = server.mcp(ServerProcess.BOB);
    assertThat(bob.listTools().tools()).isNotEmpty();
    Files.writeString(server.tokens, "{\"alice\": \"" + ServerProcess.ALICE + "\"}");
    long start = System.nanoTime();
    int status = 0;
    while (System.nanoTime() - start < 15_000_000_000L) {
      status = server.send("POST", "/mcp", ServerProcess.BOB, "{}").statusCode();
      if (status == 401) {
        break;
      }
      Thread.sleep(100);
    }
    System.out.println(
        "token revoked by the watcher after " + (System.nanoTime() - start) / 1_000_000 + " ms");
    assertThat(status).isEqualTo(401);
    assertThat(server.log()).anyMatch(l -> l.contains("revoked identities disconnected"));
    bob.close();
  }
}
