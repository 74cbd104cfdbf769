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
 * and {@code .until}), taken and renewed with the project's ETag: of two servers racing for it,
 * Incus lets exactly one write succeed (the other gets 412 and does not reap this round).
 */
final class IncusReaperLease implements ReaperLease {
  static final String HOLDER = Meta.PREFIX + "reaper.holder";
  static final String UNTIL = Meta.PREFIX + "reaper.until";
  private static final String PROJECT = "default";

  private final IncusClient client;

  IncusReaperLease(IncusClient client) {
    this.client = client;
  }

  @Override
  public boolean acquire(String holder, Instant now, Duration period) {
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
    try {
      client.projects().update(current.value().withConfig(next), current.etag());
      return true;
    } catch (IncusException.PreconditionFailed raced) {
      return false; // another server wrote first; it holds the lease now
    }
  }

  @Override
  public void release(String holder) {
    Tagged<Project> current = client.projects().getTagged(PROJECT);
    Map<String, String> cfg = current.value().config();
    if (!holder.equals(cfg.get(HOLDER))) {
      return;
    }
    Map<String, String> next = new LinkedHashMap<>(cfg);
    next.remove(HOLDER);
    next.remove(UNTIL);
    try {
      client.projects().update(current.value().withConfig(next), current.etag());
    } catch (IncusException.PreconditionFailed raced) {
      // someone else changed it meanwhile: it is theirs now
    }
  }
}
