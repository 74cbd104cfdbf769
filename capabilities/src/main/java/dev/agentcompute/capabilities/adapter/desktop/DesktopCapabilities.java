package dev.agentcompute.capabilities.adapter.desktop;

import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.service.DesktopService;
import dev.agentcompute.codemode.OmitEmpty;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * desktop.* (docs/reference/capabilities.md#desktops): the Cua Driver in a guest; screenshots come
 * back as URLs.
 */
public final class DesktopCapabilities {
  private DesktopCapabilities() {}

  /**
   * Ours: the instance is {@code instance} or {@code name} (what instance.* call it); exactly one.
   * The original had a required {@code instance} only.
   */
  public record InstanceInput(String sandbox, Optional<String> instance, Optional<String> name) {}

  public record InfoOutput(
      boolean ready,
      String os,
      String driver_version,
      List<String> tools,
      @OmitEmpty Optional<String> vnc) {}

  public record EnableOutput(boolean ready) {}

  public record CallInput(
      String sandbox,
      Optional<String> instance,
      Optional<String> name,
      String tool,
      Optional<String> args) {}

  public record CallOutput(
      boolean ok, String summary, String result, @OmitEmpty Optional<String> screenshot_url) {}

  public record ScreenshotInput(
      String sandbox,
      Optional<String> instance,
      Optional<String> name,
      OptionalLong pid,
      OptionalLong window_id,
      OptionalLong max_dimension) {}

  public record ScreenshotOutput(String url, long width, long height, double scale) {}

  public static List<CapabilityDefinition<?, ?>> definitions(DesktopService desktop) {
    return List.of(
        new CapabilityDefinition<>(
            "desktop.info",
            "Inspect Driver readiness, version, native tool names, and the human VNC endpoint.",
            List.of("desktop", "gui", "vnc", "cua driver"),
            InstanceInput.class,
            InfoOutput.class,
            (subject, in) -> {
              DesktopService.Info i =
                  desktop.info(in.sandbox(), instance(in.instance(), in.name()));
              return new InfoOutput(
                  i.ready(), i.os(), i.driverVersion(), i.tools(), nonEmpty(i.vnc()));
            }),
        new CapabilityDefinition<>(
            "desktop.enable",
            "Verify the installed Driver daemon answers in the guest graphical session.",
            List.of("desktop", "gui", "driver daemon"),
            InstanceInput.class,
            EnableOutput.class,
            (subject, in) ->
                new EnableOutput(desktop.enable(in.sandbox(), instance(in.instance(), in.name())))),
        new CapabilityDefinition<>(
            "desktop.call",
            "Call a native Driver tool with a JSON object string; decode result with json.decode."
                + " Screenshots return URLs only. Linux token clicks also need pid; snapshot again"
                + " to verify effects.",
            List.of("desktop", "click", "type", "gui automation", "cua driver"),
            CallInput.class,
            CallOutput.class,
            (subject, in) -> {
              DesktopService.Called c =
                  desktop.call(
                      in.sandbox(),
                      instance(in.instance(), in.name()),
                      in.tool(),
                      in.args().orElse("{}"));
              return new CallOutput(c.ok(), c.summary(), c.result(), nonEmpty(c.screenshotUrl()));
            }),
        new CapabilityDefinition<>(
            "desktop.screenshot",
            "Capture the desktop or a pid/window_id pair without an accessibility tree. Return a"
                + " PNG URL, dimensions, and image-to-Driver coordinate scale.",
            List.of("desktop", "screenshot", "screen capture", "png"),
            ScreenshotInput.class,
            ScreenshotOutput.class,
            (subject, in) -> {
              DesktopService.Shot s =
                  desktop.screenshot(
                      in.sandbox(),
                      instance(in.instance(), in.name()),
                      longOrNull(in.pid()),
                      longOrNull(in.window_id()),
                      in.max_dimension().orElse(0));
              return new ScreenshotOutput(s.url(), s.width(), s.height(), s.scale());
            }));
  }

  /** The instance named by {@code instance} or {@code name}: one of them, or both alike. */
  static String instance(Optional<String> instance, Optional<String> name) {
    Optional<String> a = instance.filter(v -> !v.isEmpty());
    Optional<String> b = name.filter(v -> !v.isEmpty());
    if (a.isPresent() && b.isPresent() && !a.equals(b)) {
      throw Errors.of(
          "instance \"%s\" and name \"%s\" differ: pass the instance once, as instance= or name=",
          a.get(), b.get());
    }
    return a.or(() -> b)
        .orElseThrow(
            () ->
                Errors.of(
                    "missing the instance: pass instance=\"<name>\" (or name=, as instance.* call"
                        + " it)"));
  }

  private static Optional<String> nonEmpty(String value) {
    return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
  }

  private static Long longOrNull(OptionalLong value) {
    return value.isPresent() ? value.getAsLong() : null;
  }
}
