package dev.agentcompute.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * File transfer URLs (docs/capabilities.md#file-transfer-urls) through the real server: the jar
 * Maven built runs over HTTP with bearer identities and a 256 MiB heap, against the real incusd. A
 * 1 GiB file, generated as it is sent (never in memory or on disk here), goes up and comes back
 * with the same SHA-256 while the server's heap stays bounded (sampled and printed); URLs work
 * once, expire, and answer another identity as an unknown URL.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class FileTransfersIT {
  private static final long GIB = 1L << 30;
  private static final String ALICE = "alice-token-files-it";
  private static final String BOB = "bob-token-files-it";
  private static final JsonMapper JSON = JsonMapper.shared();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  @TempDir static Path dir;
  private static Process server;
  private static String base;
  private static String sandbox;
  private static final StringBuffer log = new StringBuffer();

  @BeforeAll
  static void start() throws Exception {
    Files.createDirectories(dir.resolve("images"));
    Files.copy(
        LocalStack.root().resolve("images/catalog.yaml"), dir.resolve("images/catalog.yaml"));
    Files.writeString(
        dir.resolve("agentcompute.yaml"),
        """
        incus: {url: "unix://%s", pool: %s, host: none}
        sandbox: {default_network_kind: bridge, default_ttl_minutes: 30, max_ttl_minutes: 120}
        network: {bridge_subnets: "10.211.77.0/24"}
        screenshots: {base_url: "http://127.0.0.1:8081", listen: "127.0.0.1:0"}
        files: {max_upload_bytes: %d, url_ttl_seconds: 4, max_urls_per_identity: 3}
        """
            .formatted(
                LocalStack.incusSocket(),
                System.getProperty("agentcompute.it.pool", "default"),
                GIB));
    Path tokens = dir.resolve("tokens.json");
    Files.writeString(tokens, "{\"alice\": \"" + ALICE + "\", \"bob\": \"" + BOB + "\"}");
    Files.setPosixFilePermissions(
        tokens,
        java.util.Set.of(
            java.nio.file.attribute.PosixFilePermission.OWNER_READ,
            java.nio.file.attribute.PosixFilePermission.OWNER_WRITE));
    server =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-jar",
                LocalStack.serverJar().toString(),
                "http",
                "--addr",
                "127.0.0.1:0",
                "--config",
                dir.resolve("agentcompute.yaml").toString(),
                "--auth-tokens-file",
                tokens.toString())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    Pattern listening = Pattern.compile("msg=listening addr=127\\.0\\.0\\.1:(\\d+)");
    Thread.ofVirtual()
        .start(
            () -> {
              try (var lines = server.errorReader().lines()) {
                lines.forEach(l -> log.append(l).append('\n'));
              }
            });
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    Matcher m = listening.matcher("");
    while (!(m = listening.matcher(log)).find()) {
      assertThat(server.isAlive()).as("server exited:\n%s", log).isTrue();
      assertThat(System.nanoTime() < deadline).as("server did not listen within 120 s").isTrue();
      Thread.sleep(200);
    }
    base = "http://127.0.0.1:" + m.group(1);
    sandbox = "files-it-" + Long.toHexString(System.nanoTime() & 0xffffff);
    // 2 GiB of root disk: busybox's 1 GiB default cannot hold the 1 GiB file where the pool
    // enforces sizes (btrfs, zfs); -Dagentcompute.it.pool=NAME runs this on another pool.
    run(
        ALICE,
        """
        def main():
            sandbox.create(name="%s")
            instance.create(sandbox="%s", name="c1", image="busybox", disk_gb=2)
        """
            .formatted(sandbox, sandbox));
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (sandbox != null && server != null && server.isAlive()) {
        run(ALICE, "def main():\n    sandbox.delete(name=\"" + sandbox + "\")\n");
      }
    } finally {
      if (server != null) {
        server.destroy();
        if (!server.waitFor(20, TimeUnit.SECONDS)) {
          server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      }
    }
  }

  @Test
  void aGibibyteGoesUpAndComesBackUnchangedInBoundedHeap() throws Exception {
    AtomicBoolean sampling = new AtomicBoolean(true);
    AtomicLong peakKib = new AtomicLong();
    Thread sampler =
        Thread.ofVirtual()
            .start(
                () -> {
                  while (sampling.get()) {
                    peakKib.accumulateAndGet(heapUsedKib(server.pid()), Math::max);
                    try {
                      Thread.sleep(250);
                    } catch (InterruptedException e) {
                      return;
                    }
                  }
                });
    String up = url(ALICE, "upload_url", "/root/big.bin");
    MessageDigest sent = MessageDigest.getInstance("SHA-256");
    long t0 = System.nanoTime();
    HttpResponse<String> put =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(up))
                .header("Authorization", "Bearer " + ALICE)
                .PUT(
                    HttpRequest.BodyPublishers.fromPublisher(
                        HttpRequest.BodyPublishers.ofInputStream(
                            () -> new GeneratedInput(GIB, 42, sent)),
                        GIB))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    double upSeconds = (System.nanoTime() - t0) / 1e9;
    assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
    assertThat(put.body()).contains(GIB + " bytes written to /root/big.bin");
    Map<String, Object> stat = call(ALICE, "instance.file.stat", "/root/big.bin", "");
    assertThat(((Number) stat.get("size")).longValue()).isEqualTo(GIB);

    String down = url(ALICE, "download_url", "/root/big.bin");
    MessageDigest received = MessageDigest.getInstance("SHA-256");
    long t1 = System.nanoTime();
    HttpResponse<InputStream> get =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(down))
                .header("Authorization", "Bearer " + ALICE)
                .build(),
            HttpResponse.BodyHandlers.ofInputStream());
    assertThat(get.statusCode()).isEqualTo(200);
    assertThat(get.headers().firstValueAsLong("content-length")).hasValue(GIB);
    long count = 0;
    try (InputStream in = get.body()) {
      byte[] buffer = new byte[1 << 20];
      for (int n; (n = in.read(buffer)) >= 0; ) {
        received.update(buffer, 0, n);
        count += n;
      }
    }
    double downSeconds = (System.nanoTime() - t1) / 1e9;
    sampling.set(false);
    sampler.join();
    assertThat(count).isEqualTo(GIB);
    assertThat(HexFormat.of().formatHex(received.digest()))
        .isEqualTo(HexFormat.of().formatHex(sent.digest()));
    System.out.printf(
        "1 GiB through the server (-Xmx256m): upload %.1f s (%.0f MiB/s), download %.1f s"
            + " (%.0f MiB/s); server heap used at most %d MiB (sampled every 250 ms)%n",
        upSeconds, 1024 / upSeconds, downSeconds, 1024 / downSeconds, peakKib.get() / 1024);
    assertThat(peakKib.get()).as("sampled heap").isPositive().isLessThan(256 * 1024);
    run(
        ALICE,
        "def main():\n    instance.exec(sandbox=\"%s\", name=\"c1\", command=\"rm /root/big.bin\")\n"
            .formatted(sandbox));
  }

  @Test
  void aUrlWorksOnceForItsIdentityOnlyAndExpires() throws Exception {
    run(
        ALICE,
        "def main():\n    instance.file.write(sandbox=\"%s\", name=\"c1\", path=\"/root/note\", content=\"hello\\n\")\n"
            .formatted(sandbox));
    String down = url(ALICE, "download_url", "/root/note");
    // No bearer token: 401, and the URL is still unused.
    assertThat(get(down, null).statusCode()).isEqualTo(401);
    // Another identity gets what an unknown URL gets, and does not use it up.
    HttpResponse<String> bob = get(down, BOB);
    HttpResponse<String> unknown = get(base + "/files/" + "0".repeat(32), ALICE);
    assertThat(bob.statusCode()).isEqualTo(404).isEqualTo(unknown.statusCode());
    assertThat(bob.body()).isEqualTo(unknown.body());
    // The wrong method for a live URL of the same identity is 405 and leaves it unused.
    assertThat(put(down, ALICE, "x").statusCode()).isEqualTo(405);
    HttpResponse<String> first = get(down, ALICE);
    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(first.body()).isEqualTo("hello\n");
    HttpResponse<String> again = get(down, ALICE);
    assertThat(again.statusCode()).isEqualTo(404);
    assertThat(again.body()).isEqualTo(unknown.body());

    String up = url(ALICE, "upload_url", "/root/late");
    Thread.sleep(4500); // files.url_ttl_seconds = 4
    HttpResponse<String> late = put(up, ALICE, "too late");
    assertThat(late.statusCode()).isEqualTo(404);
    assertThat(late.body()).isEqualTo(unknown.body());

    String small = url(ALICE, "upload_url", "/root/small");
    HttpResponse<String> ok = put(small, ALICE, "twelve bytes");
    assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
    Map<String, Object> read = call(ALICE, "instance.file.read", "/root/small", ", offset=7");
    assertThat(read)
        .containsEntry("content", "bytes")
        .containsEntry("size", 12)
        .containsEntry("next_offset", 12)
        .containsEntry("truncated", false);
  }

  @Test
  void anIdentityHoldsAtMostItsLimitOfUnusedUrls() throws Exception {
    String refusal =
        failure(
            BOB,
            """
            def main():
                for i in range(4):
                    instance.file.upload_url(sandbox="%s", name="c1", path="/root/u" + str(i))
            """
                .formatted(sandbox));
    assertThat(refusal)
        .contains("identity holds 3 unused file transfer URLs")
        .contains("files.max_urls_per_identity = 3");
  }

  private static String url(String token, String kind, String path) throws Exception {
    Map<String, Object> out = call(token, "instance.file." + kind, path, "");
    return (String) out.get("url");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> call(
      String token, String capability, String path, String extra) throws Exception {
    return (Map<String, Object>)
        run(
            token,
            "def main():\n    return %s(sandbox=\"%s\", name=\"c1\", path=\"%s\"%s)\n"
                .formatted(capability, sandbox, path, extra));
  }

  private static HttpResponse<String> get(String url, String token) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> put(String url, String token, String body) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", "Bearer " + token)
            .PUT(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Runs a program through execute over MCP as {@code token}'s identity; returns its result. */
  private static Object run(String token, String source) throws Exception {
    JsonNode result = execute(token, source);
    assertThat(result.path("isError").asBoolean(false)).as("%s", result).isFalse();
    return JSON.convertValue(result.path("structuredContent").path("result"), Object.class);
  }

  private static String failure(String token, String source) throws Exception {
    JsonNode result = execute(token, source);
    assertThat(result.path("isError").asBoolean(false)).as("%s", result).isTrue();
    return result.path("content").get(0).path("text").asString();
  }

  private static JsonNode execute(String token, String source) throws Exception {
    Mcp mcp = new Mcp(token);
    mcp.post(
        Map.of(
            "jsonrpc",
            "2.0",
            "id",
            1,
            "method",
            "initialize",
            "params",
            Map.of(
                "protocolVersion", "2025-06-18",
                "capabilities", Map.of(),
                "clientInfo", Map.of("name", "files-it", "version", "1"))));
    mcp.post(Map.of("jsonrpc", "2.0", "method", "notifications/initialized"));
    return mcp.post(
            Map.of(
                "jsonrpc",
                "2.0",
                "id",
                2,
                "method",
                "tools/call",
                "params",
                Map.of("name", "execute", "arguments", Map.of("source", source))))
        .path("result");
  }

  /** A minimal Streamable HTTP client: JSON or SSE answers, one session. */
  private static final class Mcp {
    private final String token;
    private String session;

    Mcp(String token) {
      this.token = token;
    }

    JsonNode post(Map<String, Object> message) throws IOException, InterruptedException {
      HttpRequest.Builder b =
          HttpRequest.newBuilder(URI.create(base + "/mcp"))
              .timeout(Duration.ofMinutes(5))
              .header("Content-Type", "application/json")
              .header("Accept", "application/json, text/event-stream")
              .header("Authorization", "Bearer " + token)
              .header("MCP-Protocol-Version", "2025-06-18")
              .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(message)));
      if (session != null) {
        b.header("Mcp-Session-Id", session);
      }
      // A fresh connection per message: the server closes a keep-alive connection idle for its
      // header timeout (10 s), and a pooled one left idle through a long transfer would be closed
      // under the client, which does not retry a POST ("header parser received no bytes").
      HttpResponse<String> r;
      try (HttpClient fresh = HttpClient.newHttpClient()) {
        r = fresh.send(b.build(), HttpResponse.BodyHandlers.ofString());
      }
      r.headers().firstValue("mcp-session-id").ifPresent(s -> session = s);
      String body = r.body();
      if (body.isBlank()) {
        return JSON.missingNode();
      }
      if (r.headers().firstValue("content-type").orElse("").startsWith("text/event-stream")) {
        List<String> data =
            body.lines().filter(l -> l.startsWith("data:")).map(l -> l.substring(5)).toList();
        body = data.isEmpty() ? "{}" : data.getLast();
      }
      return JSON.readTree(body);
    }
  }

  /** {@code size} pseudo-random bytes of a seed, made as they are read, hashed as they go. */
  private static final class GeneratedInput extends InputStream {
    private final SplittableRandom random;
    private final MessageDigest digest;
    private long left;

    GeneratedInput(long size, long seed, MessageDigest digest) {
      this.random = new SplittableRandom(seed);
      this.digest = digest;
      this.left = size;
    }

    @Override
    public int read() {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (left == 0) {
        return -1;
      }
      int n = (int) Math.min(len, left);
      for (int i = 0; i < n; i += 8) {
        long r = random.nextLong();
        for (int j = 0; j < 8 && i + j < n; j++) {
          b[off + i + j] = (byte) (r >>> (8 * j));
        }
      }
      digest.update(b, off, n);
      left -= n;
      return n;
    }
  }

  /** The server's heap in use, from {@code jcmd GC.heap_info} (0 when it cannot be read). */
  private static long heapUsedKib(long pid) {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    try {
      Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.heap_info").start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor(10, TimeUnit.SECONDS);
      Matcher m = Pattern.compile("used (\\d+)K").matcher(out);
      return m.find() ? Long.parseLong(m.group(1)) : 0;
    } catch (IOException | InterruptedException e) {
      return 0;
    }
  }
}
