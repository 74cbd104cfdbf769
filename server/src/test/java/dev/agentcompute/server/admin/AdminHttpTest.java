package dev.agentcompute.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.service.SandboxService;
import dev.agentcompute.server.auth.BearerTokens;
import dev.agentcompute.server.auth.BearerTokensFile;
import dev.agentcompute.server.auth.TokenFileWatcher;
import dev.agentcompute.server.cli.AdminCli;
import dev.agentcompute.server.config.ServerConfig;
import dev.agentcompute.server.observe.AdminAudit;
import dev.agentcompute.server.observe.AuditEntry;
import dev.agentcompute.server.observe.AuditLog;
import dev.agentcompute.server.observe.AuditRing;
import dev.agentcompute.server.observe.ServerMetrics;
import io.helidon.webserver.WebServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin API, the console's sign-in and the CLI over real HTTP, with the sandbox side refusing
 * (AdminApiIT covers sandboxes on the real incusd): authentication, authorization, token reload,
 * the audit of every action and the CLI's errors.
 */
@Timeout(60)
class AdminHttpTest {
  @TempDir Path dir;
  private WebServer server;
  private String url;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    Path tokenFile = dir.resolve("tokens.json");
    Files.writeString(tokenFile, "{\"alice\": \"alice-token\", \"bob\": \"bob-token\"}");
    BearerTokens tokens = BearerTokensFile.load(tokenFile);
    AuditRing ring = AuditRing.recent();
    AuditLog audit = new AuditLog(ServerMetrics.inMemory());
    audit.subscribe(r -> ring.add(AuditEntry.of(r)));
    AdminService service =
        new AdminService(
            new AdminService.Sandboxes() {
              @Override
              public <T> T with(Function<SandboxService, T> action) {
                throw new AdminException(503, "no compute in this test");
              }
            },
            new RunningExecutes(Clock.systemUTC()),
            Optional.of(new TokenFileWatcher(tokenFile, tokens, Duration.ofSeconds(2))),
            ring,
            new AdminAudit(audit),
            Optional.empty(),
            Clock.systemUTC());
    AdminAccess access =
        new AdminAccess(Optional.of(tokens), () -> new ServerConfig.Admin(Set.of("alice")));
    server =
        WebServer.builder()
            .host("127.0.0.1")
            .port(0)
            .shutdownHook(false)
            .featuresDiscoverServices(false)
            .addFeature(new AdminFeature(service, access))
            .build()
            .start();
    url = "http://127.0.0.1:" + server.port();
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop();
    }
  }

  private HttpResponse<String> send(String method, String path, String token) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url + path))
            .method(method, HttpRequest.BodyPublishers.noBody());
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void withoutATokenTheApiAnswers401WithAChallenge() throws Exception {
    HttpResponse<String> r = send("GET", "/admin/executes", null);
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(r.headers().firstValue("WWW-Authenticate"))
        .contains("Bearer realm=\"agentcompute\"");
    assertThat(r.body()).contains("\"error\"").contains("admin.operators");
  }

  @Test
  void aNonOperatorIs403NamingAdminOperators() throws Exception {
    HttpResponse<String> r = send("GET", "/admin/sandboxes", "bob-token");
    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(r.headers().firstValue("Content-Type")).contains("application/json");
    assertThat(r.body())
        .isEqualTo(
            "{\"error\":\"identity \\\"bob\\\" is not an operator: add it to admin.operators in"
                + " the configuration file\"}");
  }

  @Test
  void anOperatorListsExecutesAndAnUnknownCancelIsAudited404() throws Exception {
    assertThat(send("GET", "/admin/executes", "alice-token").body()).isEqualTo("{\"executes\":[]}");
    HttpResponse<String> cancel = send("POST", "/admin/executes/ex-nope/cancel", "alice-token");
    assertThat(cancel.statusCode()).isEqualTo(404);
    assertThat(cancel.body()).contains("is not running");
    assertThat(send("GET", "/admin/audit?subject=alice&limit=1", "alice-token").body())
        .contains("\"kind\":\"admin\"")
        .contains("\"action\":\"execute.cancel\"")
        .contains("\"target\":\"ex-nope\"")
        .contains("\"outcome\":\"not_found\"");
  }

  @Test
  void aBadAuditLimitNamesTheRange() throws Exception {
    HttpResponse<String> r = send("GET", "/admin/audit?limit=5000", "alice-token");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("limit must be between 1 and 1000");
  }

  @Test
  void reloadingTokensRevokesARemovedIdentityAtOnce() throws Exception {
    Files.writeString(dir.resolve("tokens.json"), "{\"alice\": \"alice-token\"}");
    HttpResponse<String> r = send("POST", "/admin/tokens/reload", "alice-token");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).isEqualTo("{\"identities\":[\"alice\"],\"revoked\":[\"bob\"]}");
    assertThat(send("GET", "/admin/executes", "bob-token").statusCode()).isEqualTo(401);
  }

  @Test
  void theConsoleAsksForATokenThenSetsAnHttpOnlyStrictCookie() throws Exception {
    HttpResponse<String> first = send("GET", "/console", null);
    assertThat(first.statusCode()).isEqualTo(401);
    assertThat(first.body()).contains("name=\"token\"");
    assertThat(first.headers().firstValue("Content-Security-Policy"))
        .hasValueSatisfying(csp -> assertThat(csp).contains("default-src 'none'"));

    HttpResponse<String> login =
        http.send(
            HttpRequest.newBuilder(URI.create(url + "/console/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("token=alice-token"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(login.statusCode()).isEqualTo(303);
    String cookie = login.headers().firstValue("Set-Cookie").orElseThrow();
    assertThat(cookie).contains("HttpOnly").contains("SameSite=Strict").contains("Path=/console");

    HttpResponse<String> page =
        http.send(
            HttpRequest.newBuilder(URI.create(url + "/console"))
                .header("Cookie", cookie.substring(0, cookie.indexOf(';')))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("<b id=\"operator\">alice</b>");
    // The sandbox side refuses in this test: the page says so and shows the rest.
    assertThat(page.body())
        .contains("the sandboxes cannot be listed: no compute in this test")
        .contains("No execute is running.");
  }

  @Test
  void aCrossOriginConsolePostIsRefused() throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(url + "/console/tokens/reload"))
                .header("Origin", "http://evil.example")
                .header("Authorization", "Bearer alice-token")
                .POST(HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(r.body()).contains("cross-origin");
  }

  private record Run(int status, String out, String err) {}

  private Run cli(Map<String, String> env, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        AdminCli.run(
            List.of(args),
            env,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void theCliPrintsExecutesForAnOperator() {
    Run r = cli(Map.of("AGENTCOMPUTE_ADMIN_TOKEN", "alice-token"), "executes", "--url", url);
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("ID  SUBJECT  SESSION  AGE  CURRENT_CALL  CALLS_DONE");
  }

  @Test
  void theCliReads403And401AsClearErrors() throws Exception {
    Path bob = dir.resolve("bob.token");
    Files.writeString(bob, "bob-token\n");
    Run forbidden = cli(Map.of(), "executes", "--url", url, "--token-file", bob.toString());
    assertThat(forbidden.status()).isEqualTo(1);
    assertThat(forbidden.err())
        .contains("403 forbidden: identity \"bob\" is not an operator: add it to admin.operators");

    Run unauthorized = cli(Map.of(), "executes", "--url", url);
    assertThat(unauthorized.status()).isEqualTo(1);
    assertThat(unauthorized.err()).contains("401 unauthorized").contains("--token-file");
  }

  @Test
  void theCliNamesAnUnreachableServer() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Run r = cli(Map.of(), "sandboxes", "--url", "http://127.0.0.1:" + port);
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).contains("cannot reach the server at http://127.0.0.1:" + port);
  }

  @Test
  void theCliRefusesAWrongCommandLineWithUsage() {
    Run r = cli(Map.of(), "extend", "demo");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("extend takes 2 arguments").contains("Usage:");
  }
}
