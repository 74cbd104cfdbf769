package dev.agentcompute.lume;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A local server speaking the part of Lume's HTTP API that agentcompute uses (spec
 * agentcompute.md §4.2), on loopback. Lume itself runs only on macOS; this stands in for it so the
 * client's requests, bodies and status handling are exercised over real HTTP. A VM asked to run
 * reports "running" on the second GET, as a booting guest would.
 */
final class LocalLumeServer implements AutoCloseable {

  record Vm(String name, int cpus, long memoryBytes, long diskBytes, String status, int getsUntilRunning) {}

  final Map<String, Vm> vms = new ConcurrentHashMap<>();
  final List<String> requests = new CopyOnWriteArrayList<>();
  final List<JsonNode> bodies = new CopyOnWriteArrayList<>();
  /** When set, every request is answered with this status and message. */
  volatile int failWith;
  volatile String failMessage = "";

  private final HttpServer server;
  private final JsonMapper json = JsonMapper.builder().build();

  LocalLumeServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/lume/vms", this::handle);
    server.start();
  }

  URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private void handle(HttpExchange ex) throws IOException {
    String method = ex.getRequestMethod();
    String path = ex.getRequestURI().getPath();
    requests.add(method + " " + path);
    byte[] in = ex.getRequestBody().readAllBytes();
    if (in.length > 0) {
      bodies.add(json.readTree(in));
    }
    if (failWith != 0) {
      reply(ex, failWith, Map.of("message", failMessage));
      return;
    }
    List<String> parts = new ArrayList<>(List.of(path.substring("/lume/vms".length()).split("/")));
    parts.removeIf(String::isEmpty);
    if (method.equals("POST") && parts.equals(List.of("clone"))) {
      JsonNode body = bodies.getLast();
      Vm src = vms.get(body.get("name").asString());
      if (src == null) {
        reply(ex, 404, Map.of("message", "VM not found: " + body.get("name").asString()));
        return;
      }
      String newName = body.get("newName").asString();
      vms.put(newName, new Vm(newName, src.cpus(), src.memoryBytes(), src.diskBytes(), "stopped", 0));
      reply(ex, 202, Map.of("message", "cloned"));
      return;
    }
    String name = parts.isEmpty() ? "" : parts.getFirst();
    Vm vm = vms.get(name);
    String action = parts.size() > 1 ? parts.get(1) : "";
    if (action.equals("run") && in.length > 0 && "disabled".equals(bodies.getLast().path("vnc").asString(""))
        && !bodies.getLast().path("noDisplay").asBoolean(true)) {
      reply(ex, 400, Map.of("message", "vnc is disabled for this run; a display needs vnc"));
      return;
    }
    if (vm == null) {
      reply(ex, 404, Map.of("message", "Virtual machine not found"));
      return;
    }
    switch (method + " " + action) {
      case "GET " -> {
        if (vm.status().equals("starting")) {
          vm = vm.getsUntilRunning() <= 1
              ? new Vm(vm.name(), vm.cpus(), vm.memoryBytes(), vm.diskBytes(), "running", 0)
              : new Vm(vm.name(), vm.cpus(), vm.memoryBytes(), vm.diskBytes(), "starting", vm.getsUntilRunning() - 1);
          vms.put(name, vm);
        }
        boolean up = vm.status().equals("running");
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        out.put("name", vm.name());
        out.put("os", "macOS");
        out.put("cpuCount", vm.cpus());
        out.put("memorySize", vm.memoryBytes());
        out.put("diskSize", Map.of("allocated", vm.diskBytes() / 2, "total", vm.diskBytes()));
        out.put("status", up ? "running" : "stopped");
        out.put("vncUrl", null);
        out.put("ipAddress", up ? "192.168.64.7" : null);
        reply(ex, 200, out);
      }
      case "PATCH " -> {
        JsonNode body = bodies.getLast();
        long mem = Long.parseLong(body.get("memory").asString().replace("MB", "")) << 20;
        long disk = body.has("diskSize")
            ? Long.parseLong(body.get("diskSize").asString().replace("GB", "")) << 30
            : vm.diskBytes();
        vms.put(name, new Vm(name, body.get("cpu").asInt(), mem, disk, vm.status(), 0));
        reply(ex, 200, Map.of("message", "updated"));
      }
      case "POST run" -> {
        vms.put(name, new Vm(name, vm.cpus(), vm.memoryBytes(), vm.diskBytes(), "starting", 2));
        reply(ex, 202, Map.of("message", "starting"));
      }
      case "POST stop" -> {
        vms.put(name, new Vm(name, vm.cpus(), vm.memoryBytes(), vm.diskBytes(), "stopped", 0));
        reply(ex, 202, Map.of("message", "stopping"));
      }
      case "DELETE " -> {
        vms.remove(name);
        reply(ex, 200, Map.of("message", "deleted"));
      }
      default -> reply(ex, 405, Map.of("error", "method not allowed"));
    }
  }

  private void reply(HttpExchange ex, int status, Object body) throws IOException {
    byte[] out = json.writeValueAsBytes(body);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, out.length);
    ex.getResponseBody().write(out);
    ex.close();
  }

  static String text(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
