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
 * desktop.* (docs/reference/capabilities.md#desktops): the Cua Driver in a guest, its CLI run
 * through the platform's exec and file ports ({@link DesktopDriver}; Linux and macOS) or its MCP
 * proxy kept attached ({@link WindowsDriver}; Windows), and screenshots published to the {@link
 * ScreenshotStore} (agents get URLs, never image bytes). No gate and no expiry check: like exec,
 * these only read or drive a running guest. Closing it ends the Windows Driver sessions.
 */
public final class DesktopService implements AutoCloseable {
  private static final int VNC_PORT = 5900;

  private final SandboxAccess access;
  private final InstanceService instances;
  private final ImageService images;
  private final DesktopDriver driver;
  private final WindowsDriver windows;
  private final Optional<ScreenshotStore> store;

  // sandbox.identity_limits.screenshot_mb: what one owner's screenshots may hold of the store.
  private final long screenshotShare;

  DesktopService(
      SandboxAccess access,
      InstanceService instances,
      ImageService images,
      WindowsDriver windows,
      Optional<ScreenshotStore> store,
      long screenshotShare) {
    this.screenshotShare = screenshotShare;
    this.access = access;
    this.instances = instances;
    this.images = images;
    this.driver = new DesktopDriver(access.router());
    this.windows = windows;
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
    Target t = new Target(sandbox, instance, images.osOf(instance));
    // Windows and macOS guests reach their Driver whatever the catalogue says; a Linux guest has
    // one only when its image is catalogued with a desktop, and without one every call would fail
    // deep inside the guest (a missing home directory), which tells an agent nothing.
    if (!instance.desktop() && t.family() == GuestOs.LINUX) {
      throw Errors.of(
          "instance \"%s\" runs image \"%s\", which has no desktop: create the instance from an"
              + " image that image.list shows with desktop: true",
          name, instance.image());
    }
    return t;
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
    if (t.family() == GuestOs.WINDOWS) {
      Optional<WindowsDriver.Handshake> handshake =
          t.instance().isRunning()
              ? windows.handshake(t.sandbox(), t.instance())
              : Optional.empty();
      if (handshake.isEmpty()) {
        return new Info(false, t.os(), "", List.of(), vnc);
      }
      boolean ready = windows.ready(t.sandbox(), t.instance());
      return new Info(ready, t.os(), handshake.get().version(), handshake.get().tools(), vnc);
    }
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
    if (t.family() == GuestOs.WINDOWS) {
      return windows.ready(t.sandbox(), t.instance());
    }
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
    if (t.family() == GuestOs.WINDOWS) {
      WindowsDriver.Reply reply = windows.call(t.sandbox(), t.instance(), tool, json);
      DriverResults.Outcome outcome = DriverResults.mcp(tool, reply.result());
      return new Called(
          outcome.ok(), outcome.summary(), outcome.result(), publishedUrl(t, reply.png()));
    }
    DesktopDriver.Output out =
        driver.call(t.sandbox(), t.instance(), t.family(), tool, DriverResults.compact(json));
    String url = publishedUrl(t, out.png());
    if (out.exitCode() != 0) {
      String why = DesktopDriver.firstLine(out.stderr());
      return new Called(
          false, why.isEmpty() ? "Driver exited with status " + out.exitCode() : why, "", url);
    }
    DriverResults.Outcome outcome =
        DriverResults.text(tool, new String(out.stdout(), StandardCharsets.UTF_8).strip());
    return new Called(outcome.ok(), outcome.summary(), outcome.result(), url);
  }

  /** The URL of {@code png} once published; "" when the tool wrote none. */
  private String publishedUrl(Target t, byte[] png) {
    return png.length > 0 ? storeOrFail().url(publish(t, png).id()).toString() : "";
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
    if (t.family() == GuestOs.WINDOWS) {
      return windowsScreenshot(t, tool, pid, windowId, maxDimension);
    }
    String args = pid == null ? "{}" : "{\"pid\":" + pid + ",\"window_id\":" + windowId + "}";
    DesktopDriver.Output out = driver.call(t.sandbox(), t.instance(), t.family(), tool, args);
    if (out.exitCode() != 0 || out.png().length == 0) {
      String why =
          out.exitCode() != 0
              ? DesktopDriver.firstLine(out.stderr())
              : DesktopDriver.firstLine(new String(out.stdout(), StandardCharsets.UTF_8));
      throw Errors.of("Driver returned no screenshot: %s", why.isEmpty() ? "no image" : why);
    }
    int originalWidth = ScreenshotStore.size(out.png()).width();
    ScreenshotStore.Screenshot published = publishFitted(t, out.png(), maxDimension);
    double driverWidth =
        DriverResults.object(out.stdout())
            .map(o -> o.path("screenshot_width").asDouble(0))
            .filter(w -> w > 0)
            .orElse((double) originalWidth);
    return shot(published, driverWidth);
  }

  /**
   * The Windows screenshot, as the original takes it: the tool's arguments as its Go code sends
   * them, success and a JSON object required of the answer, the Driver's coordinate width from
   * {@code screen_width} (or the window's {@code window_bounds.width}), and the PNG it wrote.
   */
  private Shot windowsScreenshot(
      Target t, String tool, Long pid, Long windowId, long maxDimension) {
    String args =
        pid == null
            ? "{}"
            : "{\"pid\":"
                + pid
                + ",\"window_id\":"
                + windowId
                + ",\"include_accessibility_tree\":false"
                + (maxDimension > 0 ? ",\"max_dimension\":" + maxDimension : "")
                + "}";
    WindowsDriver.Reply reply =
        windows.call(t.sandbox(), t.instance(), tool, DriverResults.requireObject(args));
    DriverResults.Outcome outcome = DriverResults.mcp(tool, reply.result());
    if (!outcome.ok()) {
      throw Errors.of(
          "%s", outcome.summary().isEmpty() ? "Driver screenshot failed" : outcome.summary());
    }
    ObjectNode metadata =
        DriverResults.object(outcome.result().getBytes(StandardCharsets.UTF_8))
            .orElseThrow(() -> Errors.of("Driver screenshot metadata is not JSON"));
    double driverWidth =
        (pid == null ? metadata.path("screen_width") : metadata.path("window_bounds").path("width"))
            .asDouble(0);
    if (!(driverWidth > 0)) {
      throw Errors.of("Driver screenshot omitted its coordinate width");
    }
    if (reply.png().length == 0) {
      throw Errors.of("Driver did not write a screenshot");
    }
    return shot(publishFitted(t, reply.png(), maxDimension), driverWidth);
  }

  /** {@code png} shrunk to {@code maxDimension} (0: as captured), published. */
  private ScreenshotStore.Screenshot publishFitted(Target t, byte[] png, long maxDimension) {
    ScreenshotStore.Size original = ScreenshotStore.size(png);
    PngScaling.Png fitted =
        PngScaling.fit(
            png,
            original.width(),
            original.height(),
            (int) Math.min(Integer.MAX_VALUE, maxDimension));
    return publish(t, fitted.bytes());
  }

  /** The published screenshot; its scale maps its pixels to the Driver's coordinates. */
  private Shot shot(ScreenshotStore.Screenshot published, double driverWidth) {
    return new Shot(
        storeOrFail().url(published.id()).toString(),
        published.width(),
        published.height(),
        driverWidth / published.width());
  }

  private ScreenshotStore.Screenshot publish(Target t, byte[] png) {
    Sandbox sandbox = t.sandbox();
    return storeOrFail()
        .publish(
            sandbox.name(),
            sandbox.subject(),
            sandbox.pinned() ? null : sandbox.expiresAt(),
            png,
            screenshotShare);
  }

  /** Ends the Windows Driver sessions. */
  @Override
  public void close() {
    windows.close();
  }

  private ScreenshotStore storeOrFail() {
    return store.orElseThrow(() -> Errors.of("screenshots are not configured on this server"));
  }

  /**
   * The human VNC endpoint (docs/reference/capabilities.md#desktops): the one the platform reports
   * (Lume's, on mac), else an existing TCP forward to the guest's port 5900 (OVN sandboxes), else
   * the instance's first address on port 5900.
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
