package dev.agentcompute.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.server.LocalStack;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console in a real browser: Debian's headless Chromium signs in with the operator's token,
 * sees the sandbox an agent created (owner, expiry, instances), extends it, deletes it, and filters
 * the audit records, against the real server and incusd. Screenshots of every step are saved under
 * server/target/console-screenshots.
 */
@Timeout(300)
class ConsoleBrowserIT {
  static final Path SHOTS = LocalStack.root().resolve("server/target/console-screenshots");

  @TempDir Path dir;
  private ServerProcess server;
  private HeadlessChromium browser;
  private final String sandbox = "consoleit" + Long.toHexString(System.nanoTime() & 0xffffff);

  @BeforeEach
  void start() throws Exception {
    server = new ServerProcess(dir.resolve("server"));
    browser = new HeadlessChromium(dir.resolve("chromium"));
  }

  @AfterEach
  void stop() throws Exception {
    try {
      if (browser != null) {
        browser.close();
      }
    } finally {
      if (server != null) {
        server.send("DELETE", "/admin/sandboxes/" + sandbox, ServerProcess.ALICE, null);
        server.close();
      }
    }
  }

  private String row() throws Exception {
    return browser.evaluate(
        "(document.querySelector('tr[data-name=\""
            + sandbox
            + "\"]') || {innerText: ''}).innerText");
  }

  @Test
  void anOperatorSignsInSeesTheSandboxExtendsAndDeletesIt() throws Exception {
    try (McpSyncClient bob = server.mcp(ServerProcess.BOB)) {
      McpSchema.CallToolResult created =
          ServerProcess.execute(
              bob,
              "def main():\n    return sandbox.create(name=\"%s\", ttl_minutes=30)\n"
                  .formatted(sandbox));
      assertThat(created.isError()).as("%s", created.content()).isNotEqualTo(Boolean.TRUE);
    }

    browser.navigate(server.url + "/console");
    assertThat(browser.html()).contains("Operator token").doesNotContain(sandbox);
    browser.screenshot(SHOTS.resolve("1-sign-in.png"));

    browser.evaluate(
        "document.getElementById('token').value = '"
            + ServerProcess.ALICE
            + "'; document.getElementById('sign-in').click(); 'sent'");
    browser.waitFor(
        "(document.getElementById('operator') || {innerText: ''}).innerText", "alice"::equals);
    String page = browser.html();
    assertThat(page).contains("Sandboxes (").contains("Running executes").contains(sandbox);
    String before = row();
    assertThat(before).contains(sandbox).contains("bob").contains("incus").contains("min left");
    browser.screenshot(SHOTS.resolve("2-console.png"));

    // Extend by three hours through the row's form.
    browser.evaluate(
        "var f = document.querySelector('tr[data-name=\""
            + sandbox
            + "\"] form.extend'); f.querySelector('input').value = '3h';"
            + " f.querySelector('button').click(); 'sent'");
    String notice =
        browser.waitFor(
            "(document.getElementById('notice') || {innerText: ''}).innerText", s -> !s.isEmpty());
    assertThat(notice).startsWith("sandbox " + sandbox + " now expires at ");
    assertThat(row()).contains("2 h 59 min left").isNotEqualTo(before);
    browser.screenshot(SHOTS.resolve("3-extended.png"));

    // The audit records, filtered by the operator's subject, show the extension.
    browser.navigate(server.url + "/console?subject=alice");
    String audit = browser.html();
    assertThat(audit).contains("name=\"subject\" value=\"alice\"");
    assertThat(browser.evaluate("document.getElementById('audit').innerText"))
        .contains("sandbox.extend")
        .contains(sandbox)
        .doesNotContain("sandbox.create");
    browser.navigate(server.url + "/console?subject=bob");
    browser.html();
    assertThat(browser.evaluate("document.getElementById('audit').innerText"))
        .contains("sandbox.create")
        .doesNotContain("sandbox.extend");
    browser.screenshot(SHOTS.resolve("4-audit-bob.png"));

    // Delete through the row's form: the sandbox leaves the page and Incus.
    browser.navigate(server.url + "/console");
    browser.html();
    browser.evaluate(
        "document.querySelector('tr[data-name=\""
            + sandbox
            + "\"] form.delete button').click(); 'sent'");
    assertThat(
            browser.waitFor(
                "(document.getElementById('notice') || {innerText: ''}).innerText",
                s -> !s.isEmpty()))
        .isEqualTo("sandbox " + sandbox + " deleted");
    assertThat(row()).isEmpty();
    assertThat(server.send("GET", "/admin/sandboxes", ServerProcess.ALICE, null).body())
        .doesNotContain("\"" + sandbox + "\"");
    browser.screenshot(SHOTS.resolve("5-deleted.png"));
    assertThat(Files.size(SHOTS.resolve("2-console.png"))).isGreaterThan(1000);
  }

  @Test
  void aTokenOfAnIdentityThatIsNoOperatorIsRefusedNamingTheGrant() throws Exception {
    browser.navigate(server.url + "/console");
    browser.html();
    browser.evaluate(
        "document.getElementById('token').value = '"
            + ServerProcess.BOB
            + "'; document.getElementById('sign-in').click(); 'sent'");
    String error =
        browser.waitFor(
            "(document.getElementById('error') || {innerText: ''}).innerText", s -> !s.isEmpty());
    assertThat(error)
        .isEqualTo(
            "identity \"bob\" is not an operator: add it to admin.operators in the configuration"
                + " file");
    browser.screenshot(SHOTS.resolve("6-refused.png"));
    assertThat(Map.of()).isEmpty();
  }
}
