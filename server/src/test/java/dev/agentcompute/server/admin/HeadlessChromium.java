package dev.agentcompute.server.admin;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Debian's headless Chromium driven over its DevTools protocol (a WebSocket from java.net.http):
 * navigate, evaluate in the page, capture a PNG. Every command waits at most {@link #COMMAND}; the
 * browser is killed on close.
 */
final class HeadlessChromium implements AutoCloseable {
  static final String BINARY = "/usr/bin/chromium";
  static final Duration COMMAND = Duration.ofSeconds(30);
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final Process process;
  private final WebSocket socket;
  private final AtomicInteger ids = new AtomicInteger();
  private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();

  HeadlessChromium(Path profile) throws Exception {
    if (!Files.isExecutable(Path.of(BINARY))) {
      throw new AssertionError(
          BINARY
              + " is missing: install Debian's Chromium with 'apt-get install -y chromium'"
              + " (dev/setup installs it)");
    }
    process =
        new ProcessBuilder(
                BINARY,
                "--headless=new",
                "--no-sandbox", // the tests run as root, where Chromium's sandbox refuses to start
                "--disable-gpu",
                "--no-first-run",
                "--disable-extensions",
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0",
                "--user-data-dir=" + profile,
                "--window-size=1280,900",
                "about:blank")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    String browserUrl = devToolsUrl();
    URI base = URI.create(browserUrl.replace("ws://", "http://"));
    HttpClient http = HttpClient.newHttpClient();
    String list =
        http.send(
                HttpRequest.newBuilder(URI.create("http://" + base.getAuthority() + "/json/list"))
                    .timeout(COMMAND)
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    String pageUrl = null;
    for (JsonNode target : JSON.readTree(list)) {
      if (target.path("type").asString().equals("page")) {
        pageUrl = target.path("webSocketDebuggerUrl").asString();
        break;
      }
    }
    if (pageUrl == null) {
      close();
      throw new AssertionError("Chromium opened no page: " + list);
    }
    socket =
        http.newWebSocketBuilder()
            .connectTimeout(COMMAND)
            .buildAsync(URI.create(pageUrl), new Listener())
            .get(COMMAND.toSeconds(), TimeUnit.SECONDS);
  }

  /** Reads "DevTools listening on ws://..." from Chromium's stderr. */
  private String devToolsUrl() throws Exception {
    CompletableFuture<String> url = new CompletableFuture<>();
    Thread.ofVirtual()
        .start(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                  int at = line.indexOf("ws://");
                  if (line.contains("DevTools listening on") && at >= 0) {
                    url.complete(line.substring(at).strip());
                  }
                }
              } catch (IOException ignored) {
                // the browser ended
              }
              url.completeExceptionally(new AssertionError("Chromium exited before DevTools"));
            });
    return url.get(COMMAND.toSeconds(), TimeUnit.SECONDS);
  }

  private final class Listener implements WebSocket.Listener {
    private final StringBuilder message = new StringBuilder();

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      message.append(data);
      if (last) {
        JsonNode node = JSON.readTree(message.toString());
        message.setLength(0);
        if (node.has("id")) {
          CompletableFuture<JsonNode> f = pending.remove(node.get("id").asInt());
          if (f != null) {
            f.complete(node);
          }
        }
      }
      ws.request(1);
      return null;
    }
  }

  /** Sends one command and returns its {@code result}; a protocol error fails the test. */
  JsonNode call(String method, Map<String, Object> params) throws Exception {
    int id = ids.incrementAndGet();
    CompletableFuture<JsonNode> answer = new CompletableFuture<>();
    pending.put(id, answer);
    socket
        .sendText(
            JSON.writeValueAsString(Map.of("id", id, "method", method, "params", params)), true)
        .get(COMMAND.toSeconds(), TimeUnit.SECONDS);
    JsonNode node = answer.get(COMMAND.toSeconds(), TimeUnit.SECONDS);
    if (node.has("error")) {
      throw new AssertionError(method + " failed: " + node.get("error"));
    }
    return node.path("result");
  }

  void navigate(String url) throws Exception {
    call("Page.navigate", Map.of("url", url));
  }

  /** The value of a JavaScript expression evaluated in the page (DevTools, not the page's CSP). */
  String evaluate(String expression) throws Exception {
    JsonNode r = call("Runtime.evaluate", Map.of("expression", expression, "returnByValue", true));
    return r.path("result").path("value").asString("");
  }

  /** Polls {@code expression} until {@code done} accepts its value, for up to {@link #COMMAND}. */
  String waitFor(String expression, Predicate<String> done) throws Exception {
    long deadline = System.nanoTime() + COMMAND.toNanos();
    String value = "";
    while (System.nanoTime() - deadline < 0) {
      try {
        value = evaluate(expression);
      } catch (AssertionError navigating) {
        value = "";
      }
      if (done.test(value)) {
        return value;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("page never satisfied the wait; last value: " + value);
  }

  /** The page's full HTML once loaded. */
  String html() throws Exception {
    waitFor("document.readyState", "complete"::equals);
    return evaluate("document.documentElement.outerHTML");
  }

  /** Saves a PNG of the page to {@code file}. */
  void screenshot(Path file) throws Exception {
    JsonNode shot = call("Page.captureScreenshot", Map.of("format", "png"));
    Files.createDirectories(file.getParent());
    Files.write(file, Base64.getDecoder().decode(shot.path("data").asString()));
  }

  @Override
  public void close() throws InterruptedException {
    if (socket != null) {
      socket.abort();
    }
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
    // Chromium's helper processes (renderer, GPU, zygote) end with their browser.
    process.descendants().forEach(ProcessHandle::destroyForcibly);
  }
}
