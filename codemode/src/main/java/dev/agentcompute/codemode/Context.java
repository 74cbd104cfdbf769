package dev.agentcompute.codemode;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * A request scope: cancellation, an optional deadline and host-owned values (such as the
 * authenticated subject). Immutable apart from its one-way transition to done; children end when
 * their parent ends. Handlers and authorizers should stop when {@link #isDone()}.
 */
public final class Context {

  /** Why a context ended. */
  public enum Reason {
    /**
     * Someone called {@link #cancel()} on this context or an ancestor. Text: {@code context
     * canceled}.
     */
    CANCELED("context canceled"),
    /** The deadline passed. Text: {@code context deadline exceeded}. */
    DEADLINE_EXCEEDED("context deadline exceeded");

    private final String text;

    Reason(String text) {
      this.text = text;
    }

    public String text() {
      return text;
    }
  }

  /** Typed key for {@link #withValue}; compared by identity. */
  public static final class Key<T> {
    private final String name;

    public Key(String name) {
      this.name = Objects.requireNonNull(name);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  private static final Context BACKGROUND =
      new Context(null, null, null, null, new CompletableFuture<>());
  private static final ScheduledExecutorService TIMER =
      Executors.newSingleThreadScheduledExecutor(daemon());

  private final Context parent;
  private final Key<?> key;
  private final Object value;
  private final Instant deadline;
  private final CompletableFuture<Reason> done;

  private Context(
      Context parent, Key<?> key, Object value, Instant deadline, CompletableFuture<Reason> done) {
    this.parent = parent;
    this.key = key;
    this.value = value;
    this.deadline = deadline;
    this.done = done;
  }

  /** The root context: never done, no values. */
  public static Context background() {
    return BACKGROUND;
  }

  /** A child that carries {@code value} under {@code key} and shares this context's lifetime. */
  public <T> Context withValue(Key<T> key, T value) {
    return new Context(this, Objects.requireNonNull(key), value, deadline, done);
  }

  /** A child that ends when this context ends or when {@link #cancel()} is called on it. */
  public Context withCancel() {
    CompletableFuture<Reason> child = new CompletableFuture<>();
    endWith(child);
    return new Context(this, null, null, deadline, child);
  }

  /**
   * A cancellable child that also ends with {@link Reason#DEADLINE_EXCEEDED} after {@code timeout}.
   */
  public Context withTimeout(Duration timeout) {
    Instant at = Instant.now().plus(timeout);
    Instant effective = deadline != null && deadline.isBefore(at) ? deadline : at;
    CompletableFuture<Reason> child = new CompletableFuture<>();
    endWith(child);
    long nanos = Math.max(0, Duration.between(Instant.now(), effective).toNanos());
    var timer =
        TIMER.schedule(() -> child.complete(Reason.DEADLINE_EXCEEDED), nanos, TimeUnit.NANOSECONDS);
    child.whenComplete((r, e) -> timer.cancel(false));
    return new Context(this, null, null, effective, child);
  }

  /**
   * A cancellable child that ends with {@link Reason#DEADLINE_EXCEEDED} once it has run for {@code
   * timeout}; its clock stops while {@link PausableTimeout#pause() paused}. An execution pauses it
   * while a person is asked to confirm a call, which must not count against MaxExecutionTime. Its
   * {@link #deadline()} is this context's (the child's own end moves with every pause).
   */
  public PausableTimeout withPausableTimeout(Duration timeout) {
    CompletableFuture<Reason> child = new CompletableFuture<>();
    endWith(child);
    return new PausableTimeout(new Context(this, null, null, deadline, child), child, timeout);
  }

  /** The running-time budget of a {@link #withPausableTimeout} child. */
  public static final class PausableTimeout {
    private final Context context;
    private final CompletableFuture<Reason> done;
    private long remainingNanos;
    private long runningSince;
    private int pauses;
    private java.util.concurrent.ScheduledFuture<?> timer;

    private PausableTimeout(Context context, CompletableFuture<Reason> done, Duration timeout) {
      this.context = context;
      this.done = done;
      this.remainingNanos = saturatedNanos(timeout);
      synchronized (this) {
        start();
      }
      done.whenComplete((r, e) -> stop());
    }

    public Context context() {
      return context;
    }

    /** Stops the clock until the returned registration is closed; pauses may nest. */
    public Registration pause() {
      synchronized (this) {
        if (pauses++ == 0) {
          timer.cancel(false);
          remainingNanos -= System.nanoTime() - runningSince;
        }
      }
      java.util.concurrent.atomic.AtomicBoolean resumed =
          new java.util.concurrent.atomic.AtomicBoolean();
      return () -> {
        if (resumed.compareAndSet(false, true)) {
          synchronized (this) {
            if (--pauses == 0) {
              start();
            }
          }
        }
      };
    }

    private void start() {
      runningSince = System.nanoTime();
      timer =
          TIMER.schedule(
              () -> done.complete(Reason.DEADLINE_EXCEEDED),
              Math.max(0, remainingNanos),
              TimeUnit.NANOSECONDS);
    }

    private synchronized void stop() {
      timer.cancel(false);
    }

    private static long saturatedNanos(Duration d) {
      try {
        return d.toNanos();
      } catch (ArithmeticException tooLong) {
        return Long.MAX_VALUE;
      }
    }
  }

  /**
   * Ends this context (and its children) with {@link Reason#CANCELED}; no effect if already done.
   */
  public void cancel() {
    if (this == BACKGROUND) {
      throw new IllegalStateException("the background context cannot be canceled");
    }
    done.complete(Reason.CANCELED);
  }

  public boolean isDone() {
    return done.isDone();
  }

  /** Why this context ended, empty while it is live. */
  public Optional<Reason> reason() {
    return done.isDone() ? Optional.of(done.join()) : Optional.empty();
  }

  public Optional<Instant> deadline() {
    return Optional.ofNullable(deadline);
  }

  /** Completes when the context ends. */
  public CompletableFuture<Reason> done() {
    return done.copy();
  }

  /** Stops an {@link #onDone} action from running; closing it after the action ran does nothing. */
  public interface Registration extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Runs {@code action} once when this context ends, at once if it has ended already, unless the
   * returned registration is closed first: {@code try (var r = ctx.onDone(thread::interrupt))
   * {...}}. The action runs on the thread that ends the context; keep it short.
   */
  public Registration onDone(Runnable action) {
    if (!canEnd()) {
      return () -> {};
    }
    CompletableFuture<Void> registered = done.thenRun(action);
    return () -> registered.cancel(false);
  }

  /**
   * Whether this context can ever end: the background context and its value children cannot, so
   * nothing is registered with them (they live as long as the JVM and would hold every
   * registration).
   */
  private boolean canEnd() {
    return done != BACKGROUND.done;
  }

  /** Ends {@code child} when this context ends. */
  private void endWith(CompletableFuture<Reason> child) {
    if (canEnd()) {
      done.thenAccept(child::complete);
    }
  }

  /** The nearest value stored under {@code key}, if any. */
  @SuppressWarnings("unchecked")
  public <T> Optional<T> value(Key<T> key) {
    for (Context c = this; c != null; c = c.parent) {
      if (c.key == key) {
        return Optional.ofNullable((T) c.value);
      }
    }
    return Optional.empty();
  }

  private static ThreadFactory daemon() {
    return r -> {
      Thread t = new Thread(r, "codemode-context-timer");
      t.setDaemon(true);
      return t;
    };
  }
}
