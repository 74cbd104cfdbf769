package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.platform.ReaperChore;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Keeps the warm pool full in the background (docs/reference/sandbox-pool.md): one fill at {@link
 * #start()}, one {@link #AFTER_CLAIM} after every claim, and one every {@link #INTERVAL} (members
 * another server claimed or the sweep deleted). A failed fill is logged and tried again next time.
 * Closing it stops the fills; the members stay in Incus for the next server (or the sweep).
 */
public final class WarmPoolFiller implements ReaperChore {
  private static final Logger LOG = System.getLogger(WarmPoolFiller.class.getName());
  static final Duration INTERVAL = Duration.ofSeconds(30);

  /**
   * How long after a claim its replacement is prepared. An agent that has just been given a sandbox
   * goes on at once with instance.create and exec, and Incus making a member's project and bridge
   * beside them slows exactly those calls on a small host (docs/reference/sandbox-pool.md, Filler);
   * later claims meanwhile are served by the members left.
   */
  static final Duration AFTER_CLAIM = Duration.ofSeconds(5);

  private final WarmPool pool;
  private final AtomicBoolean queued = new AtomicBoolean();
  private ScheduledExecutorService scheduler;

  WarmPoolFiller(WarmPool pool) {
    this.pool = pool;
    pool.onClaimed(this::wake);
  }

  WarmPool pool() {
    return pool;
  }

  /** The configured number of members ({@code sandbox.warm_pool.size}); 0 turns the pool off. */
  public int size() {
    return pool.size();
  }

  /** Starts the background fills (none when the pool is off). */
  @Override
  public synchronized void start() {
    if (scheduler != null || pool.size() == 0) {
      return;
    }
    ScheduledThreadPoolExecutor executor =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "agentcompute-warm-pool");
              t.setDaemon(true);
              return t;
            });
    // A replacement still waiting for its delay at close is not prepared: close returns at once.
    executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    scheduler = executor;
    scheduler.scheduleWithFixedDelay(
        this::fillLogged, 0, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
  }

  private synchronized void wake() {
    if (scheduler != null && queued.compareAndSet(false, true)) {
      scheduler.schedule(this::fillLogged, AFTER_CLAIM.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private void fillLogged() {
    queued.set(false);
    try {
      int prepared = pool.fill();
      if (prepared > 0) {
        LOG.log(Level.DEBUG, () -> "warm pool filled prepared=" + prepared);
      }
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "warm pool fill failed", e);
    }
  }

  /** One fill now, in the caller's thread; returns how many members it prepared. */
  public int fillNow() {
    return IncusFailures.translated(pool::fill);
  }

  /** Unclaimed members prepared for this configuration. */
  public List<String> members() {
    return IncusFailures.translated(pool::unclaimed);
  }

  /**
   * The reaper's part: deletes members unclaimed for an hour and members a claim reserved but never
   * renamed (a crash half-way); returns the members deleted.
   */
  @Override
  public List<String> sweep() {
    return IncusFailures.translated(pool::sweep);
  }

  /** Stops the fills; a fill in progress finishes (within 20 s, else it is interrupted). */
  @Override
  public synchronized void close() {
    if (scheduler == null) {
      return;
    }
    scheduler.shutdown();
    try {
      if (!scheduler.awaitTermination(20, TimeUnit.SECONDS)) {
        scheduler.shutdownNow();
      }
    } catch (InterruptedException e) {
      scheduler.shutdownNow();
      Thread.currentThread().interrupt();
    }
    scheduler = null;
  }
}
