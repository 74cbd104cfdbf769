package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.model.AgentFacingException;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.InstanceSnapshot;
import dev.agentcompute.capabilities.model.Names;
import dev.agentcompute.capabilities.model.ResolvedImage;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.model.SnapshotOp;
import dev.agentcompute.capabilities.platform.ImageDriver;
import dev.agentcompute.capabilities.platform.PlatformRouter;
import dev.agentcompute.capabilities.platform.SnapshotDriver;
import java.util.List;

/**
 * instance.snapshot.* and instance.publish
 * (docs/reference/capabilities.md#snapshots-and-publishing). Mutations run under the gate of a live
 * sandbox; listing does not check expiry.
 */
public final class SnapshotService {
  private final SandboxAccess access;
  private final PlatformRouter router;
  private final InstanceService instances;
  private final ImageService images;

  public SnapshotService(SandboxAccess access, InstanceService instances, ImageService images) {
    this.access = access;
    this.router = access.router();
    this.instances = instances;
    this.images = images;
  }

  public void snapshot(SnapshotOp op, String sandboxName, String name, String snapshot) {
    Names.require(sandboxName, name, snapshot);
    access.runLive(
        sandboxName,
        sandbox -> {
          SnapshotDriver driver = router.snapshots(sandbox);
          switch (op) {
            case CREATE -> driver.create(sandbox, name, snapshot);
            case RESTORE -> driver.restore(sandbox, name, snapshot);
            case DELETE -> driver.delete(sandbox, name, snapshot);
          }
        });
  }

  public List<InstanceSnapshot> list(String sandboxName, String name) {
    Sandbox sandbox = access.require(sandboxName);
    Names.require(name);
    return router.snapshots(sandbox).list(sandbox, name);
  }

  /** Publishes a stopped instance as an image of its sandbox; catalogue names are reserved. */
  public String publish(String sandboxName, String name, String image) {
    Names.require(sandboxName, name, image);
    if (images.isCatalogued(image)) {
      throw Errors.of("image \"%s\" is reserved by the catalog", image);
    }
    access.runLive(
        sandboxName,
        sandbox -> {
          // The platform first: publishing is unsupported on mac whether or not the instance
          // exists.
          ImageDriver driver = router.images(sandbox);
          SandboxInstance instance = instances.require(sandbox, name);
          ResolvedImage origin = null;
          try {
            origin = images.resolve(sandboxName, instance.image());
          } catch (AgentFacingException e) {
            // The source image is gone; the published image gets the defaults.
          }
          driver.publish(sandbox, name, image, origin);
        });
    return image;
  }
}
