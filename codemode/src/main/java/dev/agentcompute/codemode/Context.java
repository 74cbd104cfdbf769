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
 * authenticated subject). Immutable apart from its one-way transition to done; children end
 * when their parent ends. Handlers and authorizers should stop when {@link #isDone()}.
 */
public final class Context {

    /** Why a context ended. */
    public enum Reason {
        /** Someone called {@link #cancel()} on this context or an ancestor. Text: {@code context canceled}. */
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

    private static final Context BACKGROUND = new Context(null, null, null, null, new CompletableFuture<>());
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(daemon());

    private final Context parent;
    private final Key<?> key;
    private final Object value;
    private final Instant deadline;
    private final CompletableFuture<Reason> done;

    private Context(Context parent, Key<?> key, Object value, Instant deadline, CompletableFuture<Reason> done) {
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
        done.thenAccept(child::complete);
        return new Context(this, null, null, deadline, child);
    }

    /** A cancellable child that also ends with {@link Reason#DEADLINE_EXCEEDED} after {@code timeout}. */
    public Context withTimeout(Duration timeout) {
        Instant at = Instant.now().plus(timeout);
        Instant effective = deadline != null && deadline.isBefore(at) ? deadline : at;
        CompletableFuture<Reason> child = new CompletableFuture<>();
        done.thenAccept(child::complete);
        long nanos = Math.max(0, Duration.between(Instant.now(), effective).toNanos());
        var timer = TIMER.schedule(() -> child.complete(Reason.DEADLINE_EXCEEDED), nanos, TimeUnit.NANOSECONDS);
        child.whenComplete((r, e) -> timer.cancel(false));
        return new Context(this, null, null, effective, child);
    }

    /** Ends this context (and its children) with {@link Reason#CANCELED}; no effect if already done. */
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
