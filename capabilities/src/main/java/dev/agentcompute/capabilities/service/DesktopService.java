package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.GuestOs;
import dev.agentcompute.capabilities.model.Names;
import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.screenshots.ScreenshotStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * desktop.* (spec §2.8): the Cua Driver in a guest, reached through the platform's exec and file
 * ports, and screenshots published to the {@link ScreenshotStore} (agents get URLs, never image
 * bytes). No gate and no expiry check: like exec, these only read or drive a running guest.
 */
public final class DesktopService {
  private static final int VNC_PORT = 5900;

  private final SandboxAccess access;
  private final InstanceService instances;
  private final ImageService images;
  private final DesktopDriver driver;
  private final Optional<ScreenshotStore> store;

  public DesktopService(
      SandboxAccess access,
      InstanceService instances,
      ImageService images,
      Optional<ScreenshotStore> store) {
    this.access = access;
    this.instances = instances;
    this.images = images;
    this.driver = new DesktopDriver(access.router());
    this.store = store;
  }

  /** desktop.info. */
  public record Info(
      boolean ready, String os, String driverVersion, List<String> tools, String vnc) {}

  /** desktop.call. */
  public record Called(boolean ok, String summary, String result, String screenshotUrl) {}

  /** desktop.screenshot. */
  public record Shot(String url, int width, int height, double scale) {}

  private record Target(Sandbox sandbox, SandboxInstance instance, String os) {
    GuestOs family() {
      return GuestOs.of(os);
    }
  }

  private Target target(String sandboxName, String name) {
    Sandbox sandbox = access.require(sandboxName);
    Names.require(name);
    SandboxInstance instance = instances.require(sandbox, name);
    return new Target(sandbox, instance, images.osOf(instance));
  }

  private Target running(String sandboxName, String name) {
    Target t = target(sandboxName, name);
    if (!t.instance().isRunning()) {
      throw Errors.instanceNotRunning(name, sandboxName);
    }
    return t;
  }

  public Info info(String sandboxName, String name) {
    Target t = target(sandboxName, name);
    String vnc = vnc(t.sandbox(), t.instance());
    if (!t.instance().isRunning() || !driver.status(t.sandbox(), t.instance(), t.family())) {
      return new Info(false, t.os(), "", List.of(), vnc);
    }
    DesktopDriver.Output docs =
        driver.plain(t.sandbox(), t.instance(), t.family(), List.of("dump-docs", "--type", "mcp"));
    Optional<ObjectNode> parsed =
        docs.exitCode() == 0 ? DriverResults.object(docs.stdout()) : Optional.empty();
    String version = parsed.map(p -> p.path("version").asString("")).orElse("");
    List<String> tools = new ArrayList<>();
    parsed.ifPresent(
        p -> {
          for (JsonNode tool : p.path("tools")) {
            String toolName = tool.isString() ? tool.asString() : tool.path("name").asString("");
            if (!toolName.isEmpty()) {
              tools.add(toolName);
            }
          }
        });
    return new Info(true, t.os(), version, tools, vnc);
  }

  /** True when the daemon answers in the guest's graphical session (and, on macOS, is allowed). */
  public boolean enable(String sandboxName, String name) {
    Target t = running(sandboxName, name);
    if (!driver.status(t.sandbox(), t.instance(), t.family())) {
      return false;
    }
    if (t.family() != GuestOs.MACOS) {
      return true;
    }
    DesktopDriver.Output permissions =
        driver.plain(
            t.sandbox(), t.instance(), t.family(), List.of("permissions", "status", "--json"));
    return permissions.exitCode() == 0
        && DriverResults.object(permissions.stdout())
            .map(
                p ->
                    p.path("accessibility").asBoolean(false)
                        && p.path("screen_recording").asBoolean(false))
            .orElse(false);
  }

  public Called call(String sandboxName, String name, String tool, String args) {
    if (tool == null || tool.isEmpty() || tool.startsWith("-")) {
      throw Errors.of("tool must be a native Driver tool name, not a CLI option");
    }
    ObjectNode json = DriverResults.requireObject(args == null || args.isEmpty() ? "{}" : args);
    Target t = running(sandboxName, name);
    DesktopDriver.Output out =
        driver.call(t.sandbox(), t.instance(), t.family(), tool, DriverResults.compact(json));
    String url =
        out.png().length > 0 ? storeOrFail().url(publish(t, out.png()).id()).toString() : "";
    if (out.exitCode() != 0) {
      String why = DesktopDriver.firstLine(out.stderr());
      return new Called(
          false, why.isEmpty() ? "Driver exited with status " + out.exitCode() : why, "", url);
    }
    Optional<ObjectNode> structured = DriverResults.object(out.stdout());
    if (structured.isPresent()) {
      ObjectNode result = (ObjectNode) DriverResults.strip(structured.get());
      return new Called(true, summary(tool, result), DriverResults.compact(result), url);
    }
    String text = new String(out.stdout(), StandardCharsets.UTF_8).strip();
    return new Called(false, DesktopDriver.firstLine(text), text, url);
  }

  public Shot screenshot(
      String sandboxName, String name, Long pid, Long windowId, long maxDimension) {
    if ((pid != null && pid < 0) || (windowId != null && windowId < 0)) {
      throw Errors.of("pid and window_id must be non-negative");
    }
    if ((pid == null) != (windowId == null)) {
      throw Errors.of("pid and window_id must be given together");
    }
    if (maxDimension < 0) {
      throw Errors.of("max_dimension must be non-negative");
    }
    Target t = running(sandboxName, name);
    String tool = pid == null ? "get_desktop_state" : "get_window_state";
    String args = pid == null ? "{}" : "{\"pid\":" + pid + ",\"window_id\":" + windowId + "}";
    DesktopDriver.Output out = driver.call(t.sandbox(), t.instance(), t.family(), tool, args);
    if (out.exitCode() != 0 || out.png().length == 0) {
      String why =
          out.exitCode() != 0
              ? DesktopDriver.firstLine(out.stderr())
              : DesktopDriver.firstLine(new String(out.stdout(), StandardCharsets.UTF_8));
      throw Errors.of("Driver returned no screenshot: %s", why.isEmpty() ? "no image" : why);
    }
    ScreenshotStore.Size original = ScreenshotStore.size(out.png());
    PngScaling.Png fitted =
        PngScaling.fit(
            out.png(),
            original.width(),
            original.height(),
            (int) Math.min(Integer.MAX_VALUE, maxDimension));
    ScreenshotStore.Screenshot published = publish(t, fitted.bytes());
    double driverWidth =
        DriverResults.object(out.stdout())
            .map(o -> o.path("screenshot_width").asDouble(0))
            .filter(w -> w > 0)
            .orElse((double) original.width());
    return new Shot(
        storeOrFail().url(published.id()).toString(),
        published.width(),
        published.height(),
        driverWidth / published.width());
  }

  private ScreenshotStore.Screenshot publish(Target t, byte[] png) {
    Sandbox sandbox = t.sandbox();
    return storeOrFail()
        .publish(sandbox.name(), sandbox.pinned() ? null : sandbox.expiresAt(), png);
  }

  private ScreenshotStore storeOrFail() {
    return store.orElseThrow(() -> Errors.of("screenshots are not configured on this server"));
  }

  private static String summary(String tool, ObjectNode result) {
    for (String field : List.of("summary", "message", "status")) {
      if (result.path(field).isString()) {
        return DesktopDriver.firstLine(result.path(field).asString());
      }
    }
    return tool + " returned " + result.size() + " fields";
  }

  /**
   * The human VNC endpoint (spec §2.8): the one the platform reports (Lume's, on mac), else an
   * existing TCP forward to the guest's port 5900 (OVN sandboxes), else the instance's first
   * address on port 5900.
   */
  private String vnc(Sandbox sandbox, SandboxInstance instance) {
    if (!instance.vncUrl().isEmpty()) {
      return instance.vncUrl();
    }
    if (sandbox.networkKind() == NetworkKind.OVN) {
      Optional<String> forwarded =
          access
              .router()
              .of(sandbox)
              .ovn()
              .flatMap(ovn -> ovn.forwardTo(sandbox, instance, VNC_PORT));
      if (forwarded.isPresent()) {
        return forwarded.get();
      }
    }
    for (SandboxInstance.Nic nic : instance.nics()) {
      for (String address : nic.addresses()) {
        return (address.indexOf(':') < 0 ? address : "[" + address + "]") + ":" + VNC_PORT;
      }
    }
    return "";
  }
}
