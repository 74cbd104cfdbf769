package dev.agentcompute.codemode.execution;

import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Failure;
import java.io.IOException;
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
 * Owns every worker process. Live processes (idle, starting and busy) never exceed
 * {@code maxLive}. A few fresh workers are started ahead of demand so an execution does not wait
 * for a JVM to start; with reuse enabled, a worker that ended cleanly waits for its next
 * execution from the same subject only, and is evicted when another caller needs the slot.
 */
final class WorkerPool implements AutoCloseable {

    /** How long after an execution takes a fresh worker its replacement starts (see refillSoon). */
    static final java.time.Duration REFILL_DELAY = java.time.Duration.ofMillis(25);

    private final List<String> command;
    private final int maxLive;
    private final int warmTarget;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Deque<Worker> fresh = new ArrayDeque<>();
    private final Map<String, Deque<Worker>> bySubject = new HashMap<>();
    private int live;
    private int starting;
    private long started;
    private boolean closed;

    WorkerPool(List<String> command, int maxLive, int warmTarget) {
        this.command = command;
        this.maxLive = maxLive;
        this.warmTarget = Math.min(warmTarget, maxLive);
        lock.lock();
        try {
            refill();
        } finally {
            lock.unlock();
        }
    }

    /** A worker for {@code subject}, waiting for a slot until {@code ctx} ends. */
    Worker acquire(String subject, Context ctx) throws CodeModeException {
        Runnable wake = () -> {
            lock.lock();
            try {
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        };
        ctx.done().thenRun(wake);
        lock.lock();
        try {
            while (true) {
                if (closed) {
                    throw CodeModeException.of(Failure.INTERNAL);
                }
                if (ctx.isDone()) {
                    throw Executor.contextFailure(ctx);
                }
                Deque<Worker> mine = bySubject.get(subject);
                while (mine != null && !mine.isEmpty()) {
                    Worker w = mine.poll();
                    if (w.alive()) {
                        return w;
                    }
                    retire(w);
                }
                while (!fresh.isEmpty()) {
                    Worker w = fresh.poll();
                    refillSoon();
                    if (w.alive()) {
                        w.subject = subject;
                        return w;
                    }
                    retire(w);
                }
                if (live < maxLive) {
                    live++;
                    lock.unlock();
                    Worker w = null;
                    try {
                        w = spawn();
                    } catch (IOException e) {
                        // reported below as an internal failure
                    }
                    lock.lock();
                    if (w == null) {
                        live--;
                        changed.signalAll();
                        throw CodeModeException.of(Failure.INTERNAL);
                    }
                    w.subject = subject;
                    return w;
                }
                if (evictOtherSubject(subject)) {
                    continue;
                }
                changed.await(50, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CodeModeException.of(Failure.CANCELED);
        } finally {
            lock.unlock();
        }
    }

    /** Returns a worker after a clean execution; it is kept only when it may serve again. */
    void release(Worker w, boolean reusable) {
        lock.lock();
        try {
            if (reusable && !closed && w.alive()) {
                bySubject.computeIfAbsent(w.subject, k -> new ArrayDeque<>()).add(w);
                changed.signalAll();
                return;
            }
        } finally {
            lock.unlock();
        }
        discard(w);
    }

    /**
     * Kills a worker now; reaping it and freeing its slot happen on a background thread, so the
     * caller's result is not delayed by JVM teardown. The slot stays counted until the process is
     * gone, so the live bound holds.
     */
    void discard(Worker w) {
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
        // Called with the lock held for a worker found dead while idle.
        w.kill();
        live--;
        refill();
    }

    private boolean evictOtherSubject(String subject) {
        for (Iterator<Map.Entry<String, Deque<Worker>>> it = bySubject.entrySet().iterator(); it.hasNext(); ) {
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
        Thread.ofVirtual().name("codemode-worker-refill").start(() -> {
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
        while (!closed && fresh.size() + starting < warmTarget && live < maxLive) {
            live++;
            starting++;
            Thread.ofPlatform().daemon().name("codemode-worker-start").start(() -> {
                Worker w = null;
                try {
                    w = spawn();
                } catch (IOException e) {
                    // Counted as not started; the next acquire spawns on demand and reports failures.
                }
                lock.lock();
                try {
                    starting--;
                    if (w == null || closed) {
                        if (w != null) {
                            w.kill();
                        }
                        live--;
                    } else {
                        fresh.add(w);
                    }
                    changed.signalAll();
                } finally {
                    lock.unlock();
                }
            });
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

    /** Number of live worker processes (for tests and benchmarks). */
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
        Deque<Worker> all = new ArrayDeque<>();
        lock.lock();
        try {
            closed = true;
            all.addAll(fresh);
            fresh.clear();
            bySubject.values().forEach(all::addAll);
            bySubject.clear();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        for (Worker w : all) {
            reap(w);
        }
    }
}
