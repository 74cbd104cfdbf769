package dev.agentcompute.codemode.execution;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Who takes a worker slot next (docs/reference/codemode.md#fair-slots): a subject running its
 * per-subject share waits behind itself, and among the others the waiter whose subject runs the
 * fewest executions goes first (earliest arrival breaks ties), so a subject with a long queue
 * cannot crowd out one with a short queue. Not thread-safe: the pool's lock guards it.
 */
final class FairQueue {

  /** One waiting caller. */
  static final class Ticket {
    final String subject;
    boolean admitted;

    private Ticket(String subject) {
      this.subject = subject;
    }
  }

  private final int perSubject;
  private final Map<String, Integer> running = new HashMap<>();
  private final List<Ticket> waiting = new ArrayList<>();

  FairQueue(int perSubject) {
    this.perSubject = perSubject;
  }

  Ticket enqueue(String subject) {
    Ticket t = new Ticket(subject);
    waiting.add(t);
    return t;
  }

  /** Whether {@code t} is the caller to serve when a slot is free. */
  boolean isNext(Ticket t) {
    Ticket best = null;
    int bestRunning = Integer.MAX_VALUE;
    for (Ticket w : waiting) {
      int r = running(w.subject);
      if (r < perSubject && r < bestRunning) {
        best = w;
        bestRunning = r;
      }
    }
    return best == t;
  }

  /** {@code t} got its worker: it runs now and waits no more. */
  void admit(Ticket t) {
    waiting.remove(t);
    t.admitted = true;
    running.merge(t.subject, 1, Integer::sum);
  }

  /** {@code t} gave up (deadline, cancellation, slot wait); no effect once admitted. */
  void leave(Ticket t) {
    if (!t.admitted) {
      waiting.remove(t);
    }
  }

  /** An execution of {@code subject} ended (or never got its worker after {@link #admit}). */
  void finished(String subject) {
    running.computeIfPresent(subject, (k, n) -> n > 1 ? n - 1 : null);
  }

  int running(String subject) {
    return running.getOrDefault(subject, 0);
  }

  /** Which limit holds a waiter of {@code subject} back, for the log. */
  String whyWaiting(String subject, int maxLive) {
    return running(subject) >= perSubject
        ? "the subject already runs "
            + running(subject)
            + " executions (MaxConcurrentExecutionsPerSubject="
            + perSubject
            + ")"
        : "all worker slots are busy (MaxConcurrentExecutions=" + maxLive + ")";
  }

  int waiting() {
    return waiting.size();
  }
}
