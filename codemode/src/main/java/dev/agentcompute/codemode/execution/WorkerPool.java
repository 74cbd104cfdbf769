package dev.agentcompute.codemode.execution;

import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Failure;
import java.io.IOException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Owns every worker process. Workers that hold a slot (executing, started on demand, or idle for
 * their subject) never exceed {@code maxLive}. On top of the slots, {@code spareTarget} spare
 * workers are kept started ahead of demand, so an execution that finds a free slot takes a running
 * JVM instead of waiting for one to start; a taken spare is replaced in the background. Live
 * processes therefore never exceed {@code maxLive + spareTarget}. With reuse enabled, a worker that
 * ended cleanly waits for its next execution from the same subject only, and is evicted when
 * another caller needs the slot. Callers take slots in the order of a {@link FairQueue} and wait at
 * most {@code slotWait} for one.
 *
 * <p>At most {@code startBound} workers are starting at once, spares and on-demand starts alike: a
 * worker counts as starting from its fork until the host reads its {@code ready} frame. JVMs that
 * start together on a machine with fewer cores than starts each cost more CPU, and every execution
 * waiting on one waits longer (docs/reference/codemode.md#worker-starts).
 */
final class WorkerPool implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(WorkerPool.class.getName());

  /** How long after an execution takes a fresh worker its replacement starts (see refillSoon). */
  static final java.time.Duration REFILL_DELAY = java.time.Duration.ofMillis(25);

  /** A missed wake-up costs at most this much waiting. */
  private static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  /** How long close() waits for spares still starting (a JVM start takes well under a second). */
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

  /**
   * How worker starts are paced: at most {@code bound} at once; an execution waits at most {@code
   * startWait} for a permit and then starts its worker beyond the bound; a spare that sends no
   * {@code ready} frame within {@code readyWait} is killed.
   */
  record Starts(int bound, Duration startWait, Duration readyWait) {
    Starts {
      bound = Math.max(1, bound);
    }

    /**
     * One start per core. An execution waits at most 2 s for a permit: when executions keep the
     * cores busy (many callers reusing workers), starts are slow and the permits would otherwise
     * queue callers into their deadline. A JVM start takes well under a second, so a spare not
     * ready after 30 s is stuck.
     */
    static Starts perCore() {
      return new Starts(
          Runtime.getRuntime().availableProcessors(),
          Duration.ofSeconds(2),
          Duration.ofSeconds(30));
    }
  }

  /** How often idle reusable workers past their idle limit are stopped. */
  private static final Duration SWEEP_INTERVAL = Duration.ofSeconds(1);

  private final List<String> command;
  private final int maxLive;
  private final long slotWaitNanos;
  private final Duration maxIdle;
  private final InstantSource clock;
  private final java.util.concurrent.ScheduledExecutorService sweeper;
  private final int spareTarget;
  private final int startBound;
  private final Duration readyWait;
  private final long startWaitNanos;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Deque<Worker> fresh = new ArrayDeque<>();

  /** Spares forked and not yet ready: close() kills them rather than wait for their start. */
  private final java.util.Set<Worker> sparesWarming = new java.util.HashSet<>();

  private final Map<String, Deque<Worker>> bySubject = new HashMap<>();
  private final FairQueue queue;

  /** Workers holding a slot: executing, starting on demand, or idle for their subject. */
  private int live;

  /** Spares being started (not yet in {@code fresh}), waiting for a start permit or not. */
  private int starting;

  /**
   * Start permits held: workers forked and not yet ready; at most {@code startBound}, except for
   * executions that waited {@code startWait} for one.
   */
  private int warming;

  /** Executions holding a slot and waiting for a spare or a start permit, first come first. */
  private final Deque<Object> startWaiters = new ArrayDeque<>();

  private long started;
  private volatile boolean closed;

  /**
   * @param maxIdle how long an idle reusable worker waits for its subject, by {@code clock}; null
   *     when workers are not reused
   * @param starts how many workers may be starting at once, and how long a spare may take
   */
  WorkerPool(
      List<String> command,
      int maxLive,
      int perSubject,
      Duration slotWait,
      int spareTarget,
      Duration maxIdle,
      InstantSource clock,
      Starts starts) {
    this.command = command;
    this.startBound = starts.bound();
    this.readyWait = starts.readyWait();
    this.startWaitNanos = saturatedNanos(starts.startWait());
    this.maxLive = maxLive;
    this.queue = new FairQueue(Math.min(perSubject, maxLive));
    this.slotWaitNanos = saturatedNanos(slotWait);
    this.spareTarget = spareTarget;
    this.maxIdle = maxIdle;
    this.clock = clock;
    lock.lock();
    try {
      refill();
    } finally {
      lock.unlock();
    }
    // An idle worker holds a slot and ~40 MiB: stop it once its subject stayed away too long.
    this.sweeper = maxIdle == null ? null : startSweeper();
  }

  private java.util.concurrent.ScheduledExecutorService startSweeper() {
    var s =
        java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name("codemode-worker-idle").unstarted(r));
    s.scheduleWithFixedDelay(
        this::stopIdle,
        SWEEP_INTERVAL.toMillis(),
        SWEEP_INTERVAL.toMillis(),
        TimeUnit.MILLISECONDS);
    return s;
  }

  /** Stops every idle reusable worker past its idle limit. */
  void stopIdle() {
    lock.lock();
    try {
      for (Iterator<Deque<Worker>> it = bySubject.values().iterator(); it.hasNext(); ) {
        Deque<Worker> idle = it.next();
        idle.removeIf(
            w -> {
              if (expired(w)) {
                retire(w);
                return true;
              }
              return false;
            });
        if (idle.isEmpty()) {
          it.remove();
        }
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private boolean expired(Worker w) {
    return maxIdle != null
        && w.idleSince != null
        && Duration.between(w.idleSince, clock.instant()).compareTo(maxIdle) > 0;
  }

  /**
   * A worker for {@code subject}, waiting for a slot in turn until {@code ctx} ends or the slot
   * wait is over ({@code resource limit exceeded}, logged with the limit that held the caller
   * back).
   */
  Worker acquire(String subject, Context ctx) throws CodeModeException {
    try (Context.Registration wake = ctx.onDone(this::signalChanged)) {
      lock.lock();
      FairQueue.Ticket ticket = queue.enqueue(subject);
      long waitStarted = System.nanoTime();
      try {
        while (true) {
          if (closed) {
            throw CodeModeException.of(Failure.INTERNAL);
          }
          if (ctx.isDone()) {
            throw Executor.contextFailure(ctx);
          }
          if (queue.isNext(ticket)) {
            Worker w = take(ticket, ctx);
            if (w != null) {
              return w;
            }
          }
          long left = slotWaitNanos - (System.nanoTime() - waitStarted);
          if (left <= 0) {
            throw slotWaitExceeded(subject, waitStarted);
          }
          changed.awaitNanos(Math.min(left, RECHECK_NANOS));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw CodeModeException.of(Failure.CANCELED);
      } finally {
        queue.leave(ticket);
        // Whoever is next now (behind this caller, or after it left) must look again.
        changed.signalAll();
        lock.unlock();
      }
    }
  }

  /**
   * A worker for the caller whose turn it is, or null when no slot is free: its own idle worker, a
   * fresh one, a new process, or a new process in the slot of another subject's idle worker.
   */
  private Worker take(FairQueue.Ticket ticket, Context ctx) throws CodeModeException {
    String subject = ticket.subject;
    while (true) {
      Deque<Worker> mine = bySubject.get(subject);
      while (mine != null && !mine.isEmpty()) {
        Worker w = mine.poll();
        if (w.alive() && !expired(w)) {
          queue.admit(ticket);
          return w;
        }
        retire(w);
      }
      if (live < maxLive) {
        live++;
        queue.admit(ticket);
        try {
          Worker w = spareOrStart(ctx);
          w.subject = subject;
          return w;
        } catch (CodeModeException e) {
          live--;
          queue.finished(subject);
          changed.signalAll();
          throw e;
        }
      }
      if (!evictOtherSubject(subject)) {
        return null;
      }
    }
  }

  /**
   * For a caller that holds a slot: a ready spare, else a worker started for it once a start permit
   * is free. The wait for a permit is not a wait for a slot (the caller has one): it ends only with
   * the caller's context, or when a spare gets ready first. Called and returns with the lock held.
   */
  private Worker spareOrStart(Context ctx) throws CodeModeException {
    Object me = new Object();
    startWaiters.add(me);
    long since = System.nanoTime();
    try {
      while (true) {
        boolean first = startWaiters.peekFirst() == me;
        Worker spare = first ? fresh.poll() : null;
        if (spare != null) {
          refillSoon();
          if (spare.alive()) {
            return spare;
          }
          spare.kill();
          continue;
        }
        if (first && warming < startBound) {
          break;
        }
        long waited = System.nanoTime() - since;
        if (waited >= startWaitNanos) {
          // Pacing, not a limit: a start never waits longer than this for a permit.
          break;
        }
        if (closed) {
          throw CodeModeException.of(Failure.INTERNAL);
        }
        if (ctx.isDone()) {
          throw Executor.contextFailure(ctx);
        }
        changed.awaitNanos(Math.min(RECHECK_NANOS, startWaitNanos - waited));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw CodeModeException.of(Failure.CANCELED);
    } finally {
      startWaiters.remove(me);
      changed.signalAll();
    }
    warming++;
    lock.unlock();
    Worker w = null;
    try {
      w = spawn();
    } catch (IOException e) {
      // reported below as an internal failure
    } finally {
      lock.lock();
    }
    if (w == null) {
      warming--;
      changed.signalAll();
      throw CodeModeException.of(Failure.INTERNAL);
    }
    // The execution reads its ready frame first and then gives the permit back (warmed).
    w.holdsStartPermit = true;
    return w;
  }

  private CodeModeException slotWaitExceeded(String subject, long waitStarted) {
    LOG.log(
        System.Logger.Level.WARNING,
        "execution for subject \""
            + subject
            + "\" refused after waiting "
            + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - waitStarted)
            + " ms for a worker slot (MaxSlotWait): "
            + queue.whyWaiting(subject, maxLive));
    return CodeModeException.of(Failure.RESOURCE_LIMIT)
        .explain(
            "worker slot wait limit ("
                + Executor.seconds(java.time.Duration.ofNanos(slotWaitNanos))
                + ") exceeded: the server is running its most executions at once; retry shortly");
  }

  /**
   * Gives back the start permit of a worker started on demand, once its {@code ready} frame was
   * read or it ended without one. Idempotent.
   */
  void warmed(Worker w) {
    lock.lock();
    try {
      givePermitBack(w);
    } finally {
      lock.unlock();
    }
  }

  private void givePermitBack(Worker w) {
    if (w.holdsStartPermit) {
      w.holdsStartPermit = false;
      warming--;
      changed.signalAll();
    }
  }

  /** Returns a worker after a clean execution; it is kept only when it may serve again. */
  void release(Worker w, boolean reusable) {
    lock.lock();
    try {
      givePermitBack(w);
      queue.finished(w.subject);
      changed.signalAll();
      if (reusable && !closed && w.alive()) {
        w.idleSince = clock.instant();
        bySubject.computeIfAbsent(w.subject, k -> new ArrayDeque<>()).add(w);
        return;
      }
    } finally {
      lock.unlock();
    }
    reapLater(w);
  }

  /** Ends an execution whose worker must not serve again: kills the worker. */
  void discard(Worker w) {
    lock.lock();
    try {
      givePermitBack(w);
      queue.finished(w.subject);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    reapLater(w);
  }

  /**
   * Kills a worker now; reaping it and freeing its slot happen on a background thread, so the
   * caller's result is not delayed by JVM teardown. The slot stays counted until the process is
   * gone, so the live bound holds.
   */
  private void reapLater(Worker w) {
    w.process.destroyForcibly();
    w.closeQuietly();
    Thread.ofVirtual().name("codemode-worker-reaper").start(() -> reap(w));
  }

  private void reap(Worker w) {
    w.kill();
    lock.lock();
    try {
      live--;
      refill();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private void retire(Worker w) {
    // Called with the lock held for a subject's worker found dead or expired while idle.
    w.kill();
    live--;
  }

  private boolean evictOtherSubject(String subject) {
    for (Iterator<Map.Entry<String, Deque<Worker>>> it = bySubject.entrySet().iterator();
        it.hasNext(); ) {
      Map.Entry<String, Deque<Worker>> e = it.next();
      if (e.getKey().equals(subject) || e.getValue().isEmpty()) {
        continue;
      }
      Worker victim = e.getValue().poll();
      if (e.getValue().isEmpty()) {
        it.remove();
      }
      victim.kill();
      live--;
      return true;
    }
    return false;
  }

  /**
   * Refills the pool a little later: a JVM starting at once would take CPU from the execution that
   * just took a worker (a 2-core host has no core to spare for it). A short execution is over by
   * then and its reaping has refilled the pool already; a long one gets its replacement started.
   */
  private void refillSoon() {
    Thread.ofVirtual()
        .name("codemode-worker-refill")
        .start(
            () -> {
              try {
                Thread.sleep(REFILL_DELAY);
              } catch (InterruptedException e) {
                return;
              }
              lock.lock();
              try {
                refill();
              } finally {
                lock.unlock();
              }
            });
  }

  private void refill() {
    while (!closed && fresh.size() + starting < spareTarget) {
      starting++;
      Thread.ofPlatform().daemon().name("codemode-worker-start").start(this::startSpare);
    }
  }

  /** Starts one spare once a start permit is free, and keeps it once it is ready. */
  private void startSpare() {
    if (!awaitStartPermit()) {
      return;
    }
    Worker w = null;
    boolean ready = false;
    try {
      w = spawn();
      if (warmingSpare(w)) {
        w.awaitReady(readyWait);
        ready = true;
      }
    } catch (IOException | RuntimeException e) {
      // Counted as not started (its permit comes back below); the next acquire spawns on demand
      // and reports failures.
      if (!closed) {
        LOG.log(
            System.Logger.Level.WARNING,
            "a spare CodeMode worker did not start: " + e.getMessage());
      }
    }
    lock.lock();
    try {
      if (w != null) {
        sparesWarming.remove(w);
      }
      starting--;
      warming--;
      if (ready && !closed) {
        fresh.add(w);
      } else if (w != null) {
        w.kill();
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Records a spare as starting, so close() can kill it; false when the pool closed already. */
  private boolean warmingSpare(Worker w) {
    lock.lock();
    try {
      return !closed && sparesWarming.add(w);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits, as a spare's starter, for a start permit and takes it; false (and the spare no longer
   * counted) when the pool closed meanwhile.
   */
  private boolean awaitStartPermit() {
    lock.lock();
    try {
      // Executions waiting for a worker go first: a spare is for the next one.
      while (!closed && (warming >= startBound || !startWaiters.isEmpty())) {
        changed.awaitNanos(RECHECK_NANOS);
      }
      if (closed) {
        starting--;
        changed.signalAll();
        return false;
      }
      warming++;
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      starting--;
      changed.signalAll();
      return false;
    } finally {
      lock.unlock();
    }
  }

  private Worker spawn() throws IOException {
    Worker w = new Worker(WorkerCommand.start(command, false));
    lock.lock();
    try {
      started++;
    } finally {
      lock.unlock();
    }
    return w;
  }

  /** Worker processes started so far (for tests and benchmarks). */
  long started() {
    lock.lock();
    try {
      return started;
    } finally {
      lock.unlock();
    }
  }

  /** Callers waiting for a slot now (for tests, benchmarks and metrics). */
  int queued() {
    lock.lock();
    try {
      return queue.waiting();
    } finally {
      lock.unlock();
    }
  }

  private static long saturatedNanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }

  private void signalChanged() {
    lock.lock();
    try {
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Started spares waiting for an execution, outside the slots (for tests and benchmarks). */
  int spares() {
    lock.lock();
    try {
      return fresh.size();
    } finally {
      lock.unlock();
    }
  }

  /** Workers forked and not yet ready, holding a start permit (for tests). */
  int warming() {
    lock.lock();
    try {
      return warming;
    } finally {
      lock.unlock();
    }
  }

  /** Spares being started now (for tests). */
  int sparesStarting() {
    lock.lock();
    try {
      return starting;
    } finally {
      lock.unlock();
    }
  }

  /** Workers holding a slot: executing, starting on demand or idle (for tests and benchmarks). */
  int live() {
    lock.lock();
    try {
      return live;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void close() {
    if (sweeper != null) {
      sweeper.shutdownNow();
    }
    Deque<Worker> all = new ArrayDeque<>();
    Deque<Worker> spares = new ArrayDeque<>();
    lock.lock();
    try {
      closed = true;
      spares.addAll(fresh);
      fresh.clear();
      bySubject.values().forEach(all::addAll);
      bySubject.clear();
      // A spare still starting would hold close() up until its start is over: cut it short.
      sparesWarming.forEach(Worker::killTree);
      changed.signalAll();
      // A spare still starting is killed by its starter once it sees closed; wait for that, so no
      // process outlives close().
      long deadline = System.nanoTime() + CLOSE_WAIT.toNanos();
      while (starting > 0 && System.nanoTime() < deadline) {
        changed.awaitNanos(RECHECK_NANOS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      lock.unlock();
    }
    for (Worker w : spares) {
      w.kill();
    }
    for (Worker w : all) {
      reap(w);
    }
  }
}
