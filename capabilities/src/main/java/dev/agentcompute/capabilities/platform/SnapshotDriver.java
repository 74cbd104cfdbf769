package dev.agentcompute.capabilities.platform;

import dev.agentcompute.capabilities.model.InstanceSnapshot;
import dev.agentcompute.capabilities.model.Sandbox;
import java.util.List;

/** Instance snapshots. Duplicate and missing snapshots are agent-facing errors. */
public interface SnapshotDriver {
  void create(Sandbox sandbox, String instance, String snapshot);

  void restore(Sandbox sandbox, String instance, String snapshot);

  void delete(Sandbox sandbox, String instance, String snapshot);

  List<InstanceSnapshot> list(Sandbox sandbox, String instance);
}
