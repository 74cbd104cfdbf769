package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.files.TransferGrants;
import dev.agentcompute.capabilities.files.TransferLimits;
import dev.agentcompute.capabilities.platform.PlatformRouter;
import dev.agentcompute.capabilities.screenshots.ScreenshotStore;
import java.time.Clock;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * The compute services, one per concern, sharing one {@link SandboxAccess} (so one gate per
 * sandbox): what the capability adapters and the reaper call.
 */
public record Compute(
    SandboxAccess access,
    SandboxService sandboxes,
    ImageService images,
    InstanceService instances,
    SnapshotService snapshots,
    NetworkService networks,
    ImpairmentService impairments,
    ComputeConfig config,
    DesktopService desktop,
    FileService files,
    ProcessService processes) {

  /** Builds every service over the platforms of {@code router}. */
  public static Compute over(
      PlatformRouter router,
      ComputeConfig config,
      ImageCatalog catalog,
      Clock clock,
      RandomGenerator random) {
    return over(router, config, catalog, clock, random, Optional.empty());
  }

  /**
   * As above, publishing desktop screenshots to {@code screenshots}, which forgets a sandbox's
   * screenshots when it is deleted or reaped.
   */
  public static Compute over(
      PlatformRouter router,
      ComputeConfig config,
      ImageCatalog catalog,
      Clock clock,
      RandomGenerator random,
      Optional<ScreenshotStore> screenshots) {
    return over(
        router,
        config,
        catalog,
        clock,
        random,
        screenshots,
        new TransferGrants(null, TransferLimits.defaults(), clock, random));
  }

  /**
   * As above, with file transfer URLs issued from {@code transfers}, which also forgets a sandbox's
   * URLs when it is deleted or reaped (and, like the screenshot store, outlives a reload).
   */
  public static Compute over(
      PlatformRouter router,
      ComputeConfig config,
      ImageCatalog catalog,
      Clock clock,
      RandomGenerator random,
      Optional<ScreenshotStore> screenshots,
      TransferGrants transfers) {
    SandboxAccess access = new SandboxAccess(router, clock, config.isolation());
    ImageService images = new ImageService(access, catalog);
    // One set of Windows Driver sessions, shared by desktop.* and the desktop wait.
    WindowsDriver windows = new WindowsDriver(router);
    InstanceService instances =
        new InstanceService(access, images, windows, new QuotaChecks(config.quotas()));
    SandboxService sandboxes = new SandboxService(access, config, random);
    screenshots.ifPresent(store -> sandboxes.onDeleted(store::purge));
    sandboxes.onDeleted(windows::forget);
    sandboxes.onDeleted(transfers::purge);
    return new Compute(
        access,
        sandboxes,
        images,
        instances,
        new SnapshotService(access, instances, images),
        new NetworkService(access, instances, config),
        new ImpairmentService(access, instances),
        config,
        new DesktopService(
            access,
            instances,
            images,
            windows,
            screenshots,
            config.quotas().identity().screenshotBytes()),
        new FileService(access, instances, transfers),
        new ProcessService(access, instances, () -> config.quotas().background()));
  }

  public PlatformRouter router() {
    return access.router();
  }
}
