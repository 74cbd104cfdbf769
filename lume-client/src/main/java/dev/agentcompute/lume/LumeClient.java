package dev.agentcompute.lume;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A client of the Lume HTTP API ({@code /lume/vms/...}), the daemon that runs macOS guests on a Mac
 * host. The API listens on the Mac's loopback ({@code 127.0.0.1:7777}); {@link MacHost#api()}
 * reaches it with one SSH {@code direct-tcpip} channel per request (HTTP/1.1, {@code Connection:
 * close}), so nothing listens on this machine.
 *
 * <p>Status handling follows the original: 2xx is success, 404 and any message containing "not
 * found" or "no such" are {@link LumeException.NotFound}, 502/503/504 and connection failures are
 * {@link LumeException.Unavailable}, anything else is a {@link LumeException} whose message is
 * {@code lume api METHOD PATH: STATUS MESSAGE}.
 */
public final class LumeClient {

  static final int MAX_RESPONSE_BYTES = 8 << 20;
  static final int MAX_MESSAGE_BYTES = 512;
  static final Duration POLL_INTERVAL = Duration.ofMillis(500);

  /** How long {@link #run} waits for a started VM to report "running". */
  public static final Duration RUN_TIMEOUT = Duration.ofSeconds(12);

  private final Dialer dialer;
  private final JsonMapper json = JsonMapper.builder().build();

  LumeClient(Dialer dialer) {
    this.dialer = Objects.requireNonNull(dialer, "dialer");
  }

  /** Options of {@code POST /lume/vms/{name}/run}; Lume 0.1.3 and later understand {@code vnc}. */
  public record RunOptions(boolean noDisplay, boolean vncDisabled) {
    /** Headless, no VNC listener: how agentcompute starts guests. */
    public static final RunOptions HEADLESS = new RunOptions(true, true);

    Map<String, Object> body() {
      return vncDisabled
          ? Map.of("noDisplay", noDisplay, "vnc", "disabled")
          : Map.of("noDisplay", noDisplay);
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
  public void setResources(String name, VmResources resources)
      throws LumeException, InterruptedException {
    call("PATCH", vmPath(name), resources.body());
  }

  /**
   * Starts the VM and waits up to {@link #RUN_TIMEOUT} for it to report "running".
   *
   * @return the VM as last seen; callers check {@link LumeVm#running()} and decide what a VM that
   *     stayed stopped means (the original looks at the serve logs for Apple's VM limit)
   */
  public LumeVm run(String name, RunOptions options) throws LumeException, InterruptedException {
    return run(name, options, RUN_TIMEOUT);
  }

  /** As {@link #run(String, RunOptions)}, waiting {@code window} for "running". */
  public LumeVm run(String name, RunOptions options, Duration window)
      throws LumeException, InterruptedException {
    call("POST", vmPath(name) + "/run", options.body());
    return waitFor(name, "running", window);
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
  public LumeVm waitFor(String name, String status, Duration timeout)
      throws LumeException, InterruptedException {
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
   * does not exist with {@code "vnc": "disabled"} must be refused with HTTP 400 saying "VNC is
   * disabled for this run" (matched without regard to case: real Lume capitalises VNC, the
   * original's text did not). A stock Lume ignores the option and answers that the VM is missing.
   *
   * @throws LumeException when the host answers anything else
   */
  public void probeVncPolicy() throws LumeException, InterruptedException {
    String probe =
        "ac-vnc-policy-probe-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    try {
      call("POST", vmPath(probe) + "/run", Map.of("noDisplay", false, "vnc", "disabled"));
    } catch (LumeException e) {
      if (e.status() == 400
          && e.getMessage().toLowerCase(Locale.ROOT).contains("vnc is disabled for this run")) {
        return;
      }
      throw new LumeException(
          "lume on this host cannot start guests with VNC disabled (" + e.getMessage() + ")",
          e.status(),
          e);
    }
    throw new LumeException(
        "lume on this host cannot start guests with VNC disabled (probe run was accepted)",
        0,
        null);
  }

  private static String vmPath(String name) {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty() || name.contains("/")) {
      throw new IllegalArgumentException("invalid Lume VM name \"" + name + "\"");
    }
    return "/lume/vms/" + name;
  }

  private JsonNode call(String method, String path, Object body)
      throws LumeException, InterruptedException {
    if (Thread.interrupted()) {
      throw new InterruptedException("lume api " + method + " " + path);
    }
    byte[] payload = body == null ? null : json.writeValueAsBytes(body);
    HttpExchange.Response resp;
    try (Dialer.Conn conn = dialer.open()) {
      resp = HttpExchange.send(conn, dialer.authority(), method, path, payload, MAX_RESPONSE_BYTES);
    } catch (HttpExchange.TooLarge e) {
      throw new LumeException("lume api " + method + " " + path + ": " + e.getMessage(), 0, e);
    } catch (IOException e) {
      throw new LumeException.Unavailable(
          "lume api " + method + " " + path + ": " + SshSessions.describe(e), 0, e);
    }
    int status = resp.status();
    byte[] bytes = resp.body();
    if (status / 100 == 2) {
      return bytes.length == 0
          ? tools.jackson.databind.node.NullNode.getInstance()
          : parse(method, path, status, bytes);
    }
    String text = "lume api " + method + " " + path + ": " + status + " " + message(bytes);
    String lower = text.toLowerCase(Locale.ROOT);
    if (status == 404 || lower.contains("not found") || lower.contains("no such")) {
      throw new LumeException.NotFound(text, status);
    }
    if (status == 502 || status == 503 || status == 504) {
      throw new LumeException.Unavailable(text, status, null);
    }
    throw new LumeException(text, status, null);
  }

  private JsonNode parse(String method, String path, int status, byte[] bytes)
      throws LumeException {
    try {
      return json.readTree(bytes);
    } catch (RuntimeException e) {
      throw new LumeException(
          "lume api " + method + " " + path + ": invalid JSON response: " + e.getMessage(),
          status,
          e);
    }
  }

  /**
   * Lume's error text: the JSON {@code message} or {@code error} field, else the raw body; 512
   * bytes at most.
   */
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
}
