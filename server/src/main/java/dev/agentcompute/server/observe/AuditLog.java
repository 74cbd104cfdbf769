package dev.agentcompute.server.observe;

import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.reaper.ReapListener;
import dev.agentcompute.codemode.AuditSink;
import dev.agentcompute.codemode.NativeCallRecord;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The audit trail (docs/operations.md#audit-trail): one record per {@code execute}, per native call
 * (with its execute's id), per authentication failure, per sandbox the reaper found expired and
 * deleted, and per pin change. Every record goes through {@link #write}: it is logged on the logger
 * {@value #LOGGER} (at every log level), appended to the JSON-lines {@link AuditFile} when {@code
 * audit.file} is configured, and handed to every {@link #subscribe subscriber}. Records hold names,
 * ids, digests and outcomes, never argument values, program text or tokens.
 */
public final class AuditLog implements AuditSink, ReapListener, AutoCloseable {
  public static final String LOGGER = "agentcompute.audit";

  /** One audit record: when, what happened ({@code msg}) and its fields as key/value pairs. */
  public record Record(Instant time, String event, List<Object> pairs) {
    public Record {
      pairs = List.copyOf(pairs);
    }

    /** The value of {@code key}, if the record has it. */
    public Optional<Object> get(String key) {
      for (int i = 0; i + 1 < pairs.size(); i += 2) {
        if (pairs.get(i).equals(key)) {
          return Optional.of(pairs.get(i + 1));
        }
      }
      return Optional.empty();
    }
  }

  private final Logger logger = System.getLogger(LOGGER);
  private final ServerMetrics metrics;
  private final Optional<AuditFile> file;
  private final List<Consumer<Record>> subscribers = new CopyOnWriteArrayList<>();

  private static final int MAX_COUNTED_EXECUTES = 100_000;

  /** Native calls counted per execute in progress, by execute id. */
  private final Map<String, AtomicInteger> callsByExecute = new ConcurrentHashMap<>();

  public AuditLog(ServerMetrics metrics) {
    this(metrics, Optional.empty());
  }

  public AuditLog(ServerMetrics metrics, Optional<AuditFile> file) {
    this.metrics = metrics;
    this.file = file;
  }

  /** Hands every later record to {@code subscriber} too (on the writing thread; keep it short). */
  public void subscribe(Consumer<Record> subscriber) {
    subscribers.add(subscriber);
  }

  @Override
  public void nativeCall(NativeCallRecord record) {
    metrics.nativeCall(record.capabilityName(), record.outcome(), record.duration());
    if (record.executeId() != null && callsByExecute.size() < MAX_COUNTED_EXECUTES) {
      // Removed by the execute's record; a call abandoned after its execute ended (a handler that
      // ignored cancellation) leaves a small entry, hence the bound.
      callsByExecute
          .computeIfAbsent(record.executeId(), id -> new AtomicInteger())
          .incrementAndGet();
    }
    write(
        "native call",
        "execute_id",
        nullable(record.executeId()),
        "subject",
        record.subject(),
        "capability",
        record.capabilityName(),
        "outcome",
        record.outcome(),
        "duration_ms",
        record.duration().toMillis(),
        "sandbox",
        nullable(record.resource()));
  }

  /**
   * The record of one finished execute: {@code outcome} is {@code ok} or the failure class (the
   * vocabulary of {@link Outcomes}), {@code sourceSha256} the hex digest of the program text.
   */
  public void execute(
      String id,
      String subject,
      String session,
      String sourceSha256,
      long sourceBytes,
      String outcome,
      Duration duration) {
    AtomicInteger calls = callsByExecute.remove(id);
    write(
        "execute",
        "execute_id",
        id,
        "subject",
        nullable(subject),
        "session",
        nullable(session),
        "source_sha256",
        sourceSha256,
        "source_bytes",
        sourceBytes,
        "outcome",
        outcome,
        "duration_ms",
        duration.toMillis(),
        "native_calls",
        calls == null ? 0 : calls.get());
  }

  /**
   * A request refused with 401: {@code reason} is {@code missing}, {@code malformed} or {@code
   * unknown}.
   */
  public void authenticationFailed(String reason, String remote, String method, String path) {
    metrics.authenticationFailure(reason);
    write(
        "authentication failed",
        "reason",
        reason,
        "remote",
        nullable(remote),
        "method",
        nullable(method),
        "path",
        nullable(path));
  }

  /** A sandbox's pin changed (the capabilities' {@code SandboxService.PinListener}). */
  public void pinChanged(String subject, Sandbox sandbox, boolean pinned) {
    write(
        "pin changed",
        "subject",
        nullable(subject),
        "sandbox",
        sandbox.name(),
        "owner",
        nullable(sandbox.subject()),
        "platform",
        nullable(sandbox.platform()),
        "pinned",
        pinned);
  }

  @Override
  public void expired(Sandbox sandbox) {
    write(
        "sandbox expired",
        "sandbox",
        sandbox.name(),
        "owner",
        nullable(sandbox.subject()),
        "platform",
        nullable(sandbox.platform()),
        "expires_at",
        String.valueOf(sandbox.expiresAt()));
  }

  @Override
  public void deleted(Sandbox sandbox) {
    metrics.reaperDeletion(sandbox.platform(), "ok");
    write(
        "sandbox reaped",
        "sandbox",
        sandbox.name(),
        "owner",
        nullable(sandbox.subject()),
        "platform",
        nullable(sandbox.platform()),
        "outcome",
        "ok");
  }

  @Override
  public void failed(Sandbox sandbox, RuntimeException failure) {
    metrics.reaperDeletion(sandbox.platform(), "failed");
    write(
        "sandbox reaped",
        "sandbox",
        sandbox.name(),
        "owner",
        nullable(sandbox.subject()),
        "platform",
        nullable(sandbox.platform()),
        "outcome",
        "failed",
        "error",
        String.valueOf(failure.getMessage()));
  }

  /**
   * The one write point of the trail: every record passes here, to the audit logger, the file and
   * the subscribers. The record's time is the one {@code time} of its line.
   */
  public void write(String event, Object... pairs) {
    Record record = new Record(Instant.now(), event, List.of(pairs));
    if (logger.isLoggable(Level.INFO)) {
      logger.log(
          Level.INFO,
          (java.util.ResourceBundle) null,
          event,
          new Log.Attributes(pairs, null, record.time()));
    }
    file.ifPresent(f -> f.append(record));
    for (Consumer<Record> subscriber : subscribers) {
      try {
        subscriber.accept(record);
      } catch (RuntimeException e) {
        // A subscriber's bug must not lose the record for the others.
      }
    }
  }

  /** Closes the file at shutdown; a failure there loses nothing: every line was flushed. */
  @Override
  public void close() {
    file.ifPresent(
        f -> {
          try {
            f.close();
          } catch (java.io.IOException e) {
            // Every line was flushed when written.
          }
        });
  }

  private static Object nullable(Object value) {
    return value == null ? "" : value;
  }
}
