package dev.agentcompute.lume;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A DOUBLE of the Lume 0.5.3 daemon ({@code lume serve} on 127.0.0.1:7777 of a Mac), answering the
 * part of its API agentcompute uses the way the real one does: a missing VM is HTTP 400 with {@code
 * {"message":"Virtual machine not found: <name>"}}; {@code run} answers 202 before the VM starts
 * and the VM reports running after {@link #bootDelayMillis}; an asynchronous start failure (Apple's
 * two-VM limit) leaves the VM stopped and is written to {@code ~/lume-serve.err.log}; {@code
 * DELETE} answers with an empty body; the VNC-disabled build refuses a display with VNC disabled
 * ({@code 400 VNC is disabled for this run, ...}), while {@link #stockVnc} mode ignores the option
 * like stock 0.5.3 and gives every running VM a VNC URL.
 *
 * <p>It also keeps what Lume keeps on disk in {@link #home()}: {@code .lume/<vm>/config.json} (one
 * key per line, with {@code macAddress} and {@code machineIdentifier}) and, for the {@code lume}
 * shim, {@code .lume-double/ls.json}, the {@code lume ls --format json} output.
 */
public final class LocalLumeServer implements AutoCloseable {
  /** A VM; {@code status} is "stopped" or "running". */
  public record Vm(
      String name,
      int cpus,
      long memoryBytes,
      long diskBytes,
      String status,
      String ip,
      String vnc) {
    Map<String, Object> json() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", name);
      m.put("os", "macOS");
      m.put("cpuCount", cpus);
      m.put("memorySize", memoryBytes);
      m.put("diskSize", Map.of("allocated", diskBytes / 3, "total", diskBytes));
      m.put("display", "1024x768");
      m.put("status", status);
      m.put("vncUrl", vnc);
      m.put("ipAddress", ip);
      m.put("locationName", "default");
      m.put("sharedDirectories", List.of());
      return m;
    }

    Vm with(String newStatus, String newIp, String newVnc) {
      return new Vm(name, cpus, memoryBytes, diskBytes, newStatus, newIp, newVnc);
    }
  }

  public final Map<String, Vm> vms = new ConcurrentHashMap<>();
  public final List<String> requests = new CopyOnWriteArrayList<>();
  public final List<JsonNode> bodies = new CopyOnWriteArrayList<>();

  /** How long a VM takes from an accepted run to "running". */
  public volatile long bootDelayMillis = 200;

  /** Stock Lume 0.5.3: the {@code vnc} run option is ignored and VMs get a VNC listener. */
  public volatile boolean stockVnc;

  /** macOS guests other accounts run on this host (they count against Apple's limit of two). */
  public volatile int otherAccountsRunning;

  /** When set, every request is answered with this status and message. */
  public volatile int failWith;

  public volatile String failMessage = "";

  private final HttpServer server;
  private final Path home;
  private final JsonMapper json = JsonMapper.builder().build();
  private final ScheduledExecutorService boots = Executors.newSingleThreadScheduledExecutor();
  private int nextIp = 10;

  /**
   * @param home the Mac user's home the daemon keeps its files in
   */
  public LocalLumeServer(Path home) throws IOException {
    this.home = home;
    Files.createDirectories(home.resolve(".lume-double"));
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/lume/vms", this::handle);
    server.start();
    writeInventory();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  public Path home() {
    return home;
  }

  /** Adds a stopped VM (a seed) with its config.json. */
  public void addVm(String name, int cpus, long memoryBytes, long diskBytes) {
    vms.put(name, new Vm(name, cpus, memoryBytes, diskBytes, "stopped", null, null));
    writeConfig(name, randomMac(), HexFormat.of().formatHex(randomBytes(16)));
    writeInventory();
  }

  /** The config.json value of {@code key} for {@code vm}, as the pin script leaves it. */
  public String configValue(String vm, String key) throws IOException {
    for (String line : Files.readAllLines(configFile(vm))) {
      String t = line.strip();
      String prefix = "\"" + key + "\": \"";
      if (t.startsWith(prefix)) {
        return t.substring(prefix.length(), t.lastIndexOf('"'));
      }
    }
    return null;
  }

  @Override
  public void close() {
    boots.shutdownNow();
    server.stop(0);
  }

  private synchronized void handle(HttpExchange ex) throws IOException {
    String method = ex.getRequestMethod();
    String path = ex.getRequestURI().getPath();
    requests.add(method + " " + path);
    byte[] in = ex.getRequestBody().readAllBytes();
    JsonNode body = in.length > 0 ? json.readTree(in) : null;
    if (body != null) {
      bodies.add(body);
    }
    if (failWith != 0) {
      reply(ex, failWith, Map.of("message", failMessage));
      return;
    }
    List<String> parts = new ArrayList<>(List.of(path.substring("/lume/vms".length()).split("/")));
    parts.removeIf(String::isEmpty);
    if (method.equals("GET") && parts.isEmpty()) {
      reply(ex, 200, vms.values().stream().map(Vm::json).toList());
      return;
    }
    if (method.equals("POST") && parts.equals(List.of("clone"))) {
      clone(ex, body);
      return;
    }
    String name = parts.isEmpty() ? "" : parts.getFirst();
    String action = parts.size() > 1 ? parts.get(1) : "";
    if (method.equals("POST") && action.equals("run") && !stockVnc && body != null) {
      // The VNC-disabled build validates the options before it looks the VM up.
      if ("disabled".equals(body.path("vnc").asString(""))
          && !body.path("noDisplay").asBoolean(false)) {
        reply(
            ex,
            400,
            Map.of("message", "VNC is disabled for this run, so '--display vnc' cannot be used."));
        return;
      }
    }
    Vm vm = vms.get(name);
    if (vm == null) {
      reply(ex, 400, Map.of("message", "Virtual machine not found: " + name));
      return;
    }
    switch (method + " " + action) {
      case "GET " -> reply(ex, 200, vm.json());
      case "PATCH " -> patch(ex, vm, body);
      case "POST run" -> run(ex, vm, body);
      case "POST stop" -> {
        vms.put(name, vm.with("stopped", null, null));
        writeInventory();
        reply(ex, 200, Map.of("message", "VM stopped successfully"));
      }
      case "DELETE " -> {
        if (vm.status().equals("running")) {
          reply(ex, 400, Map.of("message", "Cannot delete a running VM: " + name));
          return;
        }
        vms.remove(name);
        deleteTree(home.resolve(".lume").resolve(name));
        writeInventory();
        ex.sendResponseHeaders(200, -1);
        ex.close();
      }
      default -> reply(ex, 405, Map.of("message", "Method not allowed"));
    }
  }

  private void clone(HttpExchange ex, JsonNode body) throws IOException {
    String source = body.path("name").asString("");
    String target = body.path("newName").asString("");
    Vm src = vms.get(source);
    if (src == null) {
      reply(ex, 400, Map.of("message", "Virtual machine not found: " + source));
      return;
    }
    if (vms.containsKey(target)) {
      reply(ex, 400, Map.of("message", "Virtual machine already exists: " + target));
      return;
    }
    if (src.status().equals("running")) {
      reply(ex, 400, Map.of("message", "Cannot clone a running VM: " + source));
      return;
    }
    vms.put(
        target,
        new Vm(target, src.cpus(), src.memoryBytes(), src.diskBytes(), "stopped", null, null));
    // Lume gives a clone a fresh MAC address and machine identifier.
    writeConfig(target, randomMac(), HexFormat.of().formatHex(randomBytes(16)));
    writeInventory();
    reply(ex, 200, Map.of("message", "VM cloned successfully"));
  }

  private void patch(HttpExchange ex, Vm vm, JsonNode body) throws IOException {
    if (vm.status().equals("running")) {
      reply(ex, 400, Map.of("message", "Cannot update a running VM: " + vm.name()));
      return;
    }
    int cpus = body.has("cpu") ? body.get("cpu").asInt() : vm.cpus();
    long memory = body.has("memory") ? size(body.get("memory").asString()) : vm.memoryBytes();
    long disk = vm.diskBytes();
    if (body.has("diskSize")) {
      long wanted = size(body.get("diskSize").asString());
      if (wanted <= disk) {
        reply(ex, 400, Map.of("message", "Disk size can only be increased"));
        return;
      }
      disk = wanted;
    }
    vms.put(vm.name(), new Vm(vm.name(), cpus, memory, disk, vm.status(), vm.ip(), vm.vnc()));
    writeInventory();
    reply(ex, 200, Map.of("message", "VM settings updated successfully"));
  }

  private void run(HttpExchange ex, Vm vm, JsonNode body) throws IOException {
    if (vm.status().equals("running")) {
      reply(ex, 400, Map.of("message", "VM is already running: " + vm.name()));
      return;
    }
    boolean vncDisabled =
        !stockVnc && body != null && "disabled".equals(body.path("vnc").asString(""));
    reply(ex, 202, Map.of("message", "VM start initiated"));
    long running =
        vms.values().stream().filter(v -> v.status().equals("running")).count()
            + otherAccountsRunning;
    boots.schedule(
        () -> boot(vm.name(), running >= 2, vncDisabled), bootDelayMillis, TimeUnit.MILLISECONDS);
  }

  private synchronized void boot(String name, boolean overLimit, boolean vncDisabled) {
    Vm vm = vms.get(name);
    if (vm == null) {
      return;
    }
    if (overLimit) {
      append(
          "lume-serve.err.log",
          "[ERROR] Failed to start VM "
              + name
              + ": Error Domain=VZErrorDomain Code=6"
              + " \"The number of virtual machines exceeds the limit.\"\n");
      return;
    }
    String ip = "192.168.64." + nextIp++;
    String vnc = vncDisabled ? null : "vnc://:secret@127.0.0.1:5901";
    vms.put(name, vm.with("running", ip, vnc));
    append("lume-serve.out.log", "[INFO] VM " + name + " started\n");
    writeInventory();
  }

  private static long size(String text) {
    String t = text.strip().toUpperCase();
    long n = Long.parseLong(t.replaceAll("[^0-9]", ""));
    return t.endsWith("GB") ? n << 30 : t.endsWith("MB") ? n << 20 : n;
  }

  private Path configFile(String vm) {
    return home.resolve(".lume").resolve(vm).resolve("config.json");
  }

  private void writeConfig(String vm, String mac, String machineId) {
    String text =
        "{\n"
            + "  \"name\": \""
            + vm
            + "\",\n"
            + "  \"os\": \"macOS\",\n"
            + "  \"macAddress\": \""
            + mac
            + "\",\n"
            + "  \"machineIdentifier\": \""
            + machineId
            + "\"\n"
            + "}\n";
    try {
      Files.createDirectories(configFile(vm).getParent());
      Files.writeString(configFile(vm), text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void writeInventory() {
    try {
      Path tmp = home.resolve(".lume-double/ls.json.tmp");
      Files.write(tmp, json.writeValueAsBytes(vms.values().stream().map(Vm::json).toList()));
      Files.move(
          tmp,
          home.resolve(".lume-double/ls.json"),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void append(String log, String line) {
    try {
      Files.writeString(
          home.resolve(log), line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteTree(Path dir) {
    try (var walk = Files.walk(dir)) {
      walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException gone) {
      // nothing to delete
    }
  }

  private static String randomMac() {
    byte[] b = randomBytes(5);
    return "be:" + HexFormat.ofDelimiter(":").formatHex(b);
  }

  private static byte[] randomBytes(int n) {
    byte[] b = new byte[n];
    ThreadLocalRandom.current().nextBytes(b);
    return b;
  }

  private void reply(HttpExchange ex, int status, Object body) throws IOException {
    byte[] bytes = json.writeValueAsBytes(body);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    ex.getResponseBody().write(bytes);
    ex.close();
  }

  static String utf8(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
