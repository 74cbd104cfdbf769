package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.Timestamps;
import dev.agentcompute.capabilities.platform.ReaperLease;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.incus.Project;
import dev.agentcompute.incus.Tagged;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The reaper lease kept in the default project's config ({@code user.agentcompute.reaper.holder}
 * and {@code .until}), read and written under the default project's {@link ProjectMutex}: of two
 * servers racing for it, the second to get the lock finds the first one's lease and does not reap
 * this round. (The ETag alone would let both writes succeed: Incus checks it apart from the write.)
 */
final class IncusReaperLease implements ReaperLease {
  static final String HOLDER = Meta.PREFIX + "reaper.holder";
  static final String UNTIL = Meta.PREFIX + "reaper.until";
  private static final String PROJECT = "default";

  private final IncusClient client;
  private final ProjectMutex mutex;

  IncusReaperLease(IncusClient client, ProjectMutex mutex) {
    this.client = client;
    this.mutex = mutex;
  }

  @Override
  public boolean acquire(String holder, Instant now, Duration period) {
    return mutex.locked(PROJECT, "reaper", held -> acquireHoldingLock(holder, now, period, held));
  }

  @Override
  public void release(String holder) {
    mutex.locked(
        PROJECT,
        "reaper",
        held -> {
          releaseHoldingLock(holder, held);
          return null;
        });
  }

  private boolean acquireHoldingLock(
      String holder, Instant now, Duration period, ProjectMutex.Held held) {
    Tagged<Project> current = client.projects().getTagged(PROJECT);
    Map<String, String> cfg = current.value().config();
    String owner = cfg.getOrDefault(HOLDER, "");
    Instant until = Timestamps.parseOrEpoch(cfg.getOrDefault(UNTIL, ""));
    if (!owner.isEmpty() && !owner.equals(holder) && until.isAfter(now)) {
      return false;
    }
    Map<String, String> next = new LinkedHashMap<>(cfg);
    next.put(HOLDER, holder);
    next.put(UNTIL, Timestamps.metadata(now.plus(period)));
    held.check();
    try {
      client.projects().update(current.value().withConfig(next), current.etag());
      return true;
    } catch (IncusException.PreconditionFailed raced) {
      return false; // another server wrote first; it holds the lease now
    }
  }

  private void releaseHoldingLock(String holder, ProjectMutex.Held held) {
    Tagged<Project> current = client.projects().getTagged(PROJECT);
    Map<String, String> cfg = current.value().config();
    if (!holder.equals(cfg.get(HOLDER))) {
      return;
    }
    Map<String, String> next = new LinkedHashMap<>(cfg);
    next.remove(HOLDER);
    next.remove(UNTIL);
    held.check();
    try {
      client.projects().update(current.value().withConfig(next), current.etag());
    } catch (IncusException.PreconditionFailed raced) {
      // someone else changed it meanwhile: it is theirs now
    }
  }
}
