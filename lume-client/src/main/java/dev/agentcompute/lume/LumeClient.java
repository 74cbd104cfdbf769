package dev.agentcompute.lume;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A client of the Lume HTTP API ({@code /lume/vms/...}), the daemon that runs macOS guests on a Mac
 * host. In production the API listens on the Mac's loopback ({@code 127.0.0.1:7777}) and is reached
 * through an SSH tunnel; this client takes the base URI of whatever end of that tunnel the caller
 * holds, so it is tested against a local server speaking Lume's API.
 *
 * <p>Status handling follows the original: 2xx is success, 404 and any message containing
 * "not found" or "no such" are {@link LumeException.NotFound}, 502/503/504 and connection failures
 * are {@link LumeException.Unavailable}, anything else is a {@link LumeException} whose message is
 * {@code lume api METHOD PATH: STATUS MESSAGE}.
 */
public final class LumeClient {

  static final int MAX_RESPONSE_BYTES = 8 << 20;
  static final int MAX_MESSAGE_BYTES = 512;
  static final Duration POLL_INTERVAL = Duration.ofMillis(500);
  /** How long {@link #run} waits for a started VM to report "running". */
  public static final Duration RUN_TIMEOUT = Duration.ofSeconds(12);

  private final URI base;
  private final HttpClient http;
  private final JsonMapper json = JsonMapper.builder().build();
  private final Duration requestTimeout;

  private LumeClient(Builder b) {
    this.base = b.baseUri;
    this.requestTimeout = b.requestTimeout;
    this.http =
        HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(b.connectTimeout)
            .build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Options of {@code POST /lume/vms/{name}/run}; Lume 0.1.3 and later understand {@code vnc}. */
  public record RunOptions(boolean noDisplay, boolean vncDisabled) {
    /** Headless, no VNC listener: how agentcompute starts guests. */
    public static final RunOptions HEADLESS = new RunOptions(true, true);

    Map<String, Object> body() {
      return vncDisabled ? Map.of("noDisplay", noDisplay, "vnc", "disabled") : Map.of("noDisplay", noDisplay);
    }
  }

  private record CloneRequest(String name, String newName) {}

  /** {@code GET /lume/vms/{name}}. */
  public LumeVm getVm(String name) throws LumeException, InterruptedException {
    return json.treeToValue(call("GET", vmPath(name), null), LumeVm.class);
  }

  /** {@code POST /lume/vms/clone}: clones the stopped VM {@code source} as {@code newName}. */
  public void cloneVm(String source, String newName) throws LumeException, InterruptedException {
    call("POST", "/lume/vms/clone", new CloneRequest(source, newName));
  }

  /** {@code PATCH /lume/vms/{name}}: sets CPUs, memory and (when growing) the disk. */
  public void setResources(String name, VmResources resources) throws LumeException, InterruptedException {
    call("PATCH", vmPath(name), resources.body());
  }

  /**
   * Starts the VM and waits up to {@link #RUN_TIMEOUT} for it to report "running".
   *
   * @return the VM as last seen; callers check {@link LumeVm#running()} and decide what a VM that
   *     stayed stopped means (the original looks at the serve logs for Apple's VM limit)
   */
  public LumeVm run(String name, RunOptions options) throws LumeException, InterruptedException {
    call("POST", vmPath(name) + "/run", options.body());
    return waitFor(name, "running", RUN_TIMEOUT);
  }

  /** Stops the VM and waits for it to report "stopped". */
  public LumeVm stop(String name, Duration timeout) throws LumeException, InterruptedException {
    call("POST", vmPath(name) + "/stop", null);
    return waitFor(name, "stopped", timeout);
  }

  /** Deletes the VM; a VM that is already gone is not an error. */
  public void delete(String name) throws LumeException, InterruptedException {
    try {
      call("DELETE", vmPath(name), null);
    } catch (LumeException.NotFound gone) {
      // Deleting what is not there is the outcome the caller wanted.
    }
  }

  /**
   * Polls the VM every 500 ms until its status is {@code status} or {@code timeout} passes.
   *
   * @return the VM as last seen (its status may differ when the wait timed out)
   */
  public LumeVm waitFor(String name, String status, Duration timeout) throws LumeException, InterruptedException {
    Instant deadline = Instant.now().plus(timeout);
    while (true) {
      LumeVm vm = getVm(name);
      if (status.equals(vm.status()) || !Instant.now().isBefore(deadline)) {
        return vm;
      }
      Thread.sleep(POLL_INTERVAL);
    }
  }

  /**
   * Checks that this Lume can start guests with VNC disabled (0.1.3 and later): running a VM that
   * does not exist with {@code "vnc": "disabled"} must be refused with HTTP 400 saying
   * "vnc is disabled for this run".
   *
   * @throws LumeException when the host answers anything else
   */
  public void probeVncPolicy() throws LumeException, InterruptedException {
    String probe = "ac-vnc-policy-probe-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    try {
      call("POST", vmPath(probe) + "/run", Map.of("noDisplay", false, "vnc", "disabled"));
    } catch (LumeException e) {
      if (e.status() == 400 && e.getMessage().contains("vnc is disabled for this run")) {
        return;
      }
      throw new LumeException(
          "lume on this host cannot start guests with VNC disabled (" + e.getMessage() + ")", e.status(), e);
    }
    throw new LumeException(
        "lume on this host cannot start guests with VNC disabled (probe run was accepted)", 0, null);
  }

  private static String vmPath(String name) {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty() || name.contains("/")) {
      throw new IllegalArgumentException("invalid Lume VM name \"" + name + "\"");
    }
    return "/lume/vms/" + name;
  }

  private JsonNode call(String method, String path, Object body) throws LumeException, InterruptedException {
    HttpRequest.Builder req = HttpRequest.newBuilder(base.resolve(path)).timeout(requestTimeout);
    if (body != null) {
      req.header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)));
    } else {
      req.method(method, HttpRequest.BodyPublishers.noBody());
    }
    HttpResponse<InputStream> resp;
    byte[] bytes;
    try {
      resp = http.send(req.build(), HttpResponse.BodyHandlers.ofInputStream());
      try (InputStream in = resp.body()) {
        bytes = in.readNBytes(MAX_RESPONSE_BYTES + 1);
      }
    } catch (IOException e) {
      throw new LumeException.Unavailable(
          "lume api " + method + " " + path + ": " + e.getClass().getSimpleName() + ": " + e.getMessage(), 0, e);
    }
    if (bytes.length > MAX_RESPONSE_BYTES) {
      throw new LumeException(
          "lume api " + method + " " + path + ": response exceeds " + MAX_RESPONSE_BYTES + " bytes", resp.statusCode(), null);
    }
    int status = resp.statusCode();
    if (status / 100 == 2) {
      return bytes.length == 0 ? tools.jackson.databind.node.NullNode.getInstance() : parse(method, path, status, bytes);
    }
    String text = "lume api " + method + " " + path + ": " + status + " " + message(bytes);
    String lower = text.toLowerCase(java.util.Locale.ROOT);
    if (status == 404 || lower.contains("not found") || lower.contains("no such")) {
      throw new LumeException.NotFound(text, status);
    }
    if (status == 502 || status == 503 || status == 504) {
      throw new LumeException.Unavailable(text, status, null);
    }
    throw new LumeException(text, status, null);
  }

  private JsonNode parse(String method, String path, int status, byte[] bytes) throws LumeException {
    try {
      return json.readTree(bytes);
    } catch (RuntimeException e) {
      throw new LumeException("lume api " + method + " " + path + ": invalid JSON response: " + e.getMessage(), status, e);
    }
  }

  /** Lume's error text: the JSON {@code message} or {@code error} field, else the raw body; 512 bytes at most. */
  private String message(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.UTF_8).strip();
    try {
      JsonNode node = json.readTree(bytes);
      if (node != null && node.isObject()) {
        for (String field : new String[] {"message", "error"}) {
          JsonNode v = node.get(field);
          if (v != null && v.isString() && !v.asString().isEmpty()) {
            text = v.asString();
            break;
          }
        }
      }
    } catch (RuntimeException notJson) {
      // Plain-text errors are reported as they are.
    }
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    if (utf8.length <= MAX_MESSAGE_BYTES) {
      return text;
    }
    int cut = MAX_MESSAGE_BYTES;
    while (cut > 0 && (utf8[cut] & 0xC0) == 0x80) {
      cut--; // never split a UTF-8 sequence
    }
    return new String(utf8, 0, cut, StandardCharsets.UTF_8);
  }

  /** Configures a {@link LumeClient}. */
  public static final class Builder {
    private URI baseUri = URI.create("http://127.0.0.1:7777/");
    private Duration connectTimeout = Duration.ofSeconds(30);
    private Duration requestTimeout = Duration.ofSeconds(60);

    private Builder() {}

    /** The Lume API base, by default {@code http://127.0.0.1:7777/} (the Mac's side of the tunnel). */
    public Builder baseUri(URI uri) {
      this.baseUri = Objects.requireNonNull(uri, "uri");
      return this;
    }

    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    public Builder requestTimeout(Duration timeout) {
      this.requestTimeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    public LumeClient build() {
      return new LumeClient(this);
    }
  }
}
