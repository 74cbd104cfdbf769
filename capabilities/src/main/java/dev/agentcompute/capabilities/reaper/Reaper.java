package dev.agentcompute.capabilities.reaper;

import dev.agentcompute.capabilities.compute.ComputeService;
import dev.agentcompute.capabilities.compute.Sandbox;
import dev.agentcompute.capabilities.compute.Timestamps;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Deletes expired sandboxes: one scan at {@link #start()} and then one every interval (30 s by
 * default). Pinned sandboxes are skipped and logged; an expired one is re-read under its gate before
 * deletion; a failed deletion is logged and retried by the next scan. Everything the reaper needs
 * lives in the backend, so a restarted service resumes where the previous one stopped.
 */
public final class Reaper implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(Reaper.class.getName());

  private final ComputeService service;
  private final Duration interval;
  private ScheduledExecutorService scheduler;

  public Reaper(ComputeService service, Duration interval) {
    this.service = service;
    this.interval = interval;
  }

  /** What one scan did. */
  public record Scan(List<String> deleted, List<String> pinned, List<String> failed) {}

  /** Starts the periodic scans (the first one immediately). */
  public synchronized void start() {
    if (scheduler != null) {
      throw new IllegalStateException("reaper already started");
    }
    scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "agentcompute-reaper");
      t.setDaemon(true);
      return t;
    });
    scheduler.scheduleWithFixedDelay(this::scanLogged, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void scanLogged() {
    try {
      scan();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "reaper scan failed", e);
    }
  }

  /** One scan; public so operators and tests can trigger one. */
  public Scan scan() {
    List<String> deleted = new ArrayList<>();
    List<String> pinned = new ArrayList<>();
    List<String> failed = new ArrayList<>();
    Instant now = service.now();
    for (Sandbox sandbox : service.backend().listSandboxes()) {
      if (sandbox.pinned()) {
        LOG.info(() -> "sandbox pinned; expires_at ignored sandbox=" + sandbox.name() + " pinned_by="
            + sandbox.pinnedBy() + " since=" + Timestamps.output(sandbox.pinnedAt()));
        pinned.add(sandbox.name());
        continue;
      }
      if (sandbox.expiresAt().isAfter(now)) {
        continue;
      }
      try {
        switch (service.reap(sandbox.name())) {
          case DELETED -> {
            LOG.info(() -> "reaper deleted expired sandbox=" + sandbox.name());
            deleted.add(sandbox.name());
          }
          case PINNED -> pinned.add(sandbox.name());
          case GONE, LIVE -> {
            // Deleted or extended meanwhile.
          }
        }
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "reaper delete failed sandbox=" + sandbox.name(), e);
        failed.add(sandbox.name());
      }
    }
    return new Scan(deleted, pinned, failed);
  }

  /** Stops scheduling; a scan in progress finishes. */
  @Override
  public synchronized void close() {
    if (scheduler != null) {
      scheduler.shutdownNow();
      scheduler = null;
    }
  }
}
