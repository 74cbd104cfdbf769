package dev.agentcompute.capabilities.reaper;

import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.Timestamps;
import dev.agentcompute.capabilities.platform.ReaperChore;
import dev.agentcompute.capabilities.platform.ReaperLease;
import dev.agentcompute.capabilities.service.SandboxService;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Deletes expired sandboxes: one scan at {@link #start()} and then one every interval (30 s by
 * default). Pinned sandboxes are skipped and logged; an expired one is re-read under its gate
 * before deletion; a failed deletion is logged and retried by the next scan. Everything the reaper
 * needs lives in the backend, so a restarted service resumes where the previous one stopped.
 */
public final class Reaper implements AutoCloseable {
  private static final Logger LOG = System.getLogger(Reaper.class.getName());

  private final SandboxService sandboxes;
  private final Duration interval;
  private final ReaperLease lease;
  private final Duration leasePeriod;
  private final String holder;
  private ScheduledExecutorService scheduler;
  private volatile ReapListener listener = ReapListener.NONE;

  /** A reaper alone on its Incus (it never needs a lease). */
  public Reaper(SandboxService sandboxes, Duration interval) {
    this(sandboxes, interval, ReaperLease.ALWAYS, interval.multipliedBy(3), "local");
  }

  /**
   * A reaper that scans only while it holds {@code lease} (renewed each scan for {@code
   * leasePeriod}); {@code holder} names this server in the lease.
   */
  public Reaper(
      SandboxService sandboxes,
      Duration interval,
      ReaperLease lease,
      Duration leasePeriod,
      String holder) {
    if (leasePeriod.compareTo(interval) <= 0) {
      throw new IllegalArgumentException("the reaper lease must outlast the scan interval");
    }
    this.sandboxes = sandboxes;
    this.interval = interval;
    this.lease = lease;
    this.leasePeriod = leasePeriod;
    this.holder = holder;
  }

  private final List<ReaperChore> chores = new java.util.concurrent.CopyOnWriteArrayList<>();

  /**
   * Runs {@code chore} beside this reaper: started when it starts (at once when it runs already),
   * swept in each scan that holds the lease, closed with it.
   */
  public synchronized void alsoRun(ReaperChore chore) {
    chores.add(chore);
    if (scheduler != null) {
      chore.start();
    }
  }

  /** Tells {@code listener} of every expiry, deletion and failed deletion from now on. */
  public void observe(ReapListener listener) {
    this.listener = listener == null ? ReapListener.NONE : listener;
  }

  private void tell(java.util.function.Consumer<ReapListener> event) {
    try {
      event.accept(listener);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "the reaper's listener failed", e);
    }
  }

  /** What one scan did. */
  public record Scan(List<String> deleted, List<String> pinned, List<String> failed) {}

  /** Starts the periodic scans (the first one immediately). */
  public synchronized void start() {
    if (scheduler != null) {
      throw new IllegalStateException("reaper already started");
    }
    scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "agentcompute-reaper");
              t.setDaemon(true);
              return t;
            });
    scheduler.scheduleWithFixedDelay(
        this::scanLogged, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    chores.forEach(ReaperChore::start);
  }

  private void scanLogged() {
    try {
      scan();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "reaper scan failed", e);
    }
  }

  /** Whether the last scan ran (this server held the lease). */
  private volatile boolean active;

  /** True when the last scan held the lease and ran. */
  public boolean active() {
    return active;
  }

  /**
   * One scan, when this server holds the lease (else nothing: another server reaps); public so
   * operators and tests can trigger one.
   */
  public Scan scan() {
    List<String> deleted = new ArrayList<>();
    List<String> pinned = new ArrayList<>();
    List<String> failed = new ArrayList<>();
    Instant now = sandboxes.now();
    boolean held = lease.acquire(holder, now, leasePeriod);
    if (held != active) {
      LOG.log(
          Level.INFO,
          held
              ? "reaper lease taken holder=" + holder
              : "reaper lease held elsewhere; not reaping");
    }
    active = held;
    if (!held) {
      return new Scan(deleted, pinned, failed);
    }
    for (Sandbox sandbox : sandboxes.all()) {
      if (sandbox.pinned()) {
        LOG.log(
            Level.INFO,
            () ->
                "sandbox pinned; expires_at ignored sandbox="
                    + sandbox.name()
                    + " pinned_by="
                    + sandbox.pinnedBy()
                    + " since="
                    + Timestamps.output(sandbox.pinnedAt()));
        pinned.add(sandbox.name());
        continue;
      }
      if (sandbox.expiresAt().isAfter(now)) {
        continue;
      }
      tell(l -> l.expired(sandbox));
      try {
        switch (sandboxes.reap(sandbox.name())) {
          case DELETED -> {
            LOG.log(Level.INFO, () -> "reaper deleted expired sandbox=" + sandbox.name());
            deleted.add(sandbox.name());
            tell(l -> l.deleted(sandbox));
          }
          case PINNED -> pinned.add(sandbox.name());
          case GONE, LIVE -> {
            // Deleted or extended meanwhile.
          }
        }
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "reaper delete failed sandbox=" + sandbox.name(), e);
        failed.add(sandbox.name());
        tell(l -> l.failed(sandbox, e));
      }
    }
    try {
      for (String name : sandboxes.finishDeletions()) {
        LOG.log(Level.INFO, () -> "reaper finished a half-deleted sandbox=" + name);
      }
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "reaper could not finish half-deleted sandboxes", e);
    }
    for (ReaperChore chore : chores) {
      try {
        chore.sweep();
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "reaper chore sweep failed", e);
      }
    }
    return new Scan(deleted, pinned, failed);
  }

  /** How long close waits for a scan in progress before interrupting it. */
  private static final Duration SCAN_FINISH = Duration.ofSeconds(20);

  /**
   * Stops scheduling and returns once no scan runs: one in progress finishes (within {@link
   * #SCAN_FINISH}, else it is interrupted), so the reaper makes no Incus call after close.
   */
  @Override
  public synchronized void close() {
    for (ReaperChore chore : chores) {
      try {
        chore.close();
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "reaper chore close failed", e);
      }
    }
    if (scheduler != null) {
      scheduler.shutdown();
      try {
        if (!scheduler.awaitTermination(SCAN_FINISH.toMillis(), TimeUnit.MILLISECONDS)) {
          scheduler.shutdownNow();
          scheduler.awaitTermination(5, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        scheduler.shutdownNow();
        Thread.currentThread().interrupt();
      }
      scheduler = null;
      if (active) {
        try {
          lease.release(holder);
        } catch (RuntimeException e) {
          LOG.log(Level.WARNING, "reaper lease release failed", e);
        }
        active = false;
      }
    }
  }
}
