package dev.agentcompute.codemode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Execution and discovery budgets. A zero field means "use the default" when a server is built
 * ({@link #resolve()}); a negative field fails the build. {@link #validate()} checks an already
 * resolved set and rejects zero too. Change a field with its typed wither ({@code
 * Limits.unset().withMaxExecutionTime(Duration.ofSeconds(10)).withMaxNativeCalls(1_000)}).
 *
 * @param maxSourceBytes UTF-8 bytes of program source (65,536)
 * @param maxExecutionSteps Starlark steps per execution (1,000,000)
 * @param maxExecutionTime elapsed time from before queueing to the result (5 s)
 * @param maxNativeCalls attempted capability calls per execution (100)
 * @param maxValueDepth inclusive nesting depth of any value crossing the worker boundary (32)
 * @param maxValueBytes encoded size of any value crossing the worker boundary (1 MiB)
 * @param maxIntermediateValueBytes sum of successful native-result bodies per execution (8 MiB)
 * @param maxSearchQueryBytes raw search query bytes (256)
 * @param maxSearchResults search results per response (20)
 * @param maxConcurrentExecutions live worker processes, idle ones included (8)
 * @param maxWorkerMemoryBytes heap ceiling of one worker JVM (128 MiB)
 * @param maxExecutionsPerWorker executions one worker serves, for one subject, before it is
 *     replaced (1: a fresh process for every execution)
 * @param maxConcurrentExecutionsPerSubject executions one subject may run at once (half of
 *     MaxConcurrentExecutions rounded up: 4 of 8), so one identity cannot take every slot; a value
 *     above MaxConcurrentExecutions means no per-subject cap
 * @param maxSlotWait how long an execution waits for a slot before it fails with {@code resource
 *     limit exceeded} (30 s); MaxExecutionTime, which covers the wait too, may end it sooner
 * @param maxConfirmationWait how long a native call waits for a person to answer a confirmation
 *     request (120 s); this wait does not count against MaxExecutionTime
 * @param maxWorkerIdleTime how long a reusable worker waits for its subject's next execution before
 *     it is stopped (60 s); only with MaxExecutionsPerWorker above 1
 */
public record Limits(
    long maxSourceBytes,
    long maxExecutionSteps,
    Duration maxExecutionTime,
    long maxNativeCalls,
    long maxValueDepth,
    long maxValueBytes,
    long maxIntermediateValueBytes,
    long maxSearchQueryBytes,
    long maxSearchResults,
    long maxConcurrentExecutions,
    long maxWorkerMemoryBytes,
    long maxExecutionsPerWorker,
    long maxConcurrentExecutionsPerSubject,
    Duration maxSlotWait,
    Duration maxConfirmationWait,
    Duration maxWorkerIdleTime) {

  /** The smallest worker heap a JVM with the interpreter starts in. */
  static final long MIN_WORKER_MEMORY_BYTES = 16L << 20;

  public Limits {
    maxExecutionTime = maxExecutionTime == null ? Duration.ZERO : maxExecutionTime;
    maxSlotWait = maxSlotWait == null ? Duration.ZERO : maxSlotWait;
    maxConfirmationWait = maxConfirmationWait == null ? Duration.ZERO : maxConfirmationWait;
    maxWorkerIdleTime = maxWorkerIdleTime == null ? Duration.ZERO : maxWorkerIdleTime;
  }

  /**
   * The fields that existed before the per-subject cap, the slot wait, the confirmation wait and
   * the worker idle time; those take their defaults.
   *
   * @deprecated use {@link #unset()} and the typed withers
   */
  @Deprecated(forRemoval = true)
  public Limits(
      long maxSourceBytes,
      long maxExecutionSteps,
      Duration maxExecutionTime,
      long maxNativeCalls,
      long maxValueDepth,
      long maxValueBytes,
      long maxIntermediateValueBytes,
      long maxSearchQueryBytes,
      long maxSearchResults,
      long maxConcurrentExecutions,
      long maxWorkerMemoryBytes,
      long maxExecutionsPerWorker) {
    this(
        maxSourceBytes,
        maxExecutionSteps,
        maxExecutionTime,
        maxNativeCalls,
        maxValueDepth,
        maxValueBytes,
        maxIntermediateValueBytes,
        maxSearchQueryBytes,
        maxSearchResults,
        maxConcurrentExecutions,
        maxWorkerMemoryBytes,
        maxExecutionsPerWorker,
        0,
        Duration.ZERO,
        Duration.ZERO,
        Duration.ZERO);
  }

  /** All fields zero: every budget takes its default when the server is built. */
  public static Limits unset() {
    return new Limits(
        0,
        0,
        Duration.ZERO,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        Duration.ZERO,
        Duration.ZERO,
        Duration.ZERO);
  }

  public static Limits defaults() {
    return new Limits(
        65_536,
        1_000_000,
        Duration.ofSeconds(5),
        100,
        32,
        1_048_576,
        8_388_608,
        256,
        20,
        8,
        128L << 20,
        1,
        4,
        Duration.ofSeconds(30),
        Duration.ofSeconds(120),
        Duration.ofSeconds(60));
  }

  public Limits withMaxSourceBytes(long v) {
    return edit(f -> f.maxSourceBytes = v);
  }

  public Limits withMaxExecutionSteps(long v) {
    return edit(f -> f.maxExecutionSteps = v);
  }

  public Limits withMaxExecutionTime(Duration v) {
    return edit(f -> f.maxExecutionTime = v);
  }

  public Limits withMaxNativeCalls(long v) {
    return edit(f -> f.maxNativeCalls = v);
  }

  public Limits withMaxValueDepth(long v) {
    return edit(f -> f.maxValueDepth = v);
  }

  public Limits withMaxValueBytes(long v) {
    return edit(f -> f.maxValueBytes = v);
  }

  public Limits withMaxIntermediateValueBytes(long v) {
    return edit(f -> f.maxIntermediateValueBytes = v);
  }

  public Limits withMaxSearchQueryBytes(long v) {
    return edit(f -> f.maxSearchQueryBytes = v);
  }

  public Limits withMaxSearchResults(long v) {
    return edit(f -> f.maxSearchResults = v);
  }

  public Limits withMaxConcurrentExecutions(long v) {
    return edit(f -> f.maxConcurrentExecutions = v);
  }

  public Limits withMaxWorkerMemoryBytes(long v) {
    return edit(f -> f.maxWorkerMemoryBytes = v);
  }

  public Limits withMaxExecutionsPerWorker(long v) {
    return edit(f -> f.maxExecutionsPerWorker = v);
  }

  public Limits withMaxConcurrentExecutionsPerSubject(long v) {
    return edit(f -> f.maxConcurrentExecutionsPerSubject = v);
  }

  public Limits withMaxSlotWait(Duration v) {
    return edit(f -> f.maxSlotWait = v);
  }

  public Limits withMaxConfirmationWait(Duration v) {
    return edit(f -> f.maxConfirmationWait = v);
  }

  public Limits withMaxWorkerIdleTime(Duration v) {
    return edit(f -> f.maxWorkerIdleTime = v);
  }

  /**
   * Worker reuse for one subject (the server's {@code codemode.worker_reuse: {max_executions,
   * max_idle_seconds}}): a worker that ended cleanly serves up to {@code maxExecutions} executions
   * of the same subject, each with a fresh interpreter and fresh budgets, and is stopped after
   * {@code maxIdle} without one. {@code maxExecutions} 1 turns reuse off (the default: a fresh
   * process per execution).
   */
  public Limits withWorkerReuse(long maxExecutions, Duration maxIdle) {
    return withMaxExecutionsPerWorker(maxExecutions).withMaxWorkerIdleTime(maxIdle);
  }

  /** Replaces every zero field with its default. */
  public Limits resolve() {
    Limits d = defaults();
    return edit(
        f -> {
          f.maxSourceBytes = or(maxSourceBytes, d.maxSourceBytes);
          f.maxExecutionSteps = or(maxExecutionSteps, d.maxExecutionSteps);
          f.maxExecutionTime = maxExecutionTime.isZero() ? d.maxExecutionTime : maxExecutionTime;
          f.maxNativeCalls = or(maxNativeCalls, d.maxNativeCalls);
          f.maxValueDepth = or(maxValueDepth, d.maxValueDepth);
          f.maxValueBytes = or(maxValueBytes, d.maxValueBytes);
          f.maxIntermediateValueBytes = or(maxIntermediateValueBytes, d.maxIntermediateValueBytes);
          f.maxSearchQueryBytes = or(maxSearchQueryBytes, d.maxSearchQueryBytes);
          f.maxSearchResults = or(maxSearchResults, d.maxSearchResults);
          f.maxConcurrentExecutions = or(maxConcurrentExecutions, d.maxConcurrentExecutions);
          f.maxWorkerMemoryBytes = or(maxWorkerMemoryBytes, d.maxWorkerMemoryBytes);
          f.maxExecutionsPerWorker = or(maxExecutionsPerWorker, d.maxExecutionsPerWorker);
          // Half the resolved global cap, so a host that lowers it keeps room for others.
          f.maxConcurrentExecutionsPerSubject =
              or(maxConcurrentExecutionsPerSubject, (f.maxConcurrentExecutions + 1) / 2);
          f.maxSlotWait = maxSlotWait.isZero() ? d.maxSlotWait : maxSlotWait;
          f.maxConfirmationWait =
              maxConfirmationWait.isZero() ? d.maxConfirmationWait : maxConfirmationWait;
          f.maxWorkerIdleTime =
              maxWorkerIdleTime.isZero() ? d.maxWorkerIdleTime : maxWorkerIdleTime;
        });
  }

  /** Problems of a resolved limit set: every field must be positive ("MaxX must be positive"). */
  public List<String> problems() {
    List<String> out = new ArrayList<>();
    for (LimitSettings.Field f : LimitSettings.FIELDS) {
      if (f.sign(this) <= 0) {
        out.add(f.name() + " must be positive");
      }
    }
    if (maxWorkerMemoryBytes > 0 && maxWorkerMemoryBytes < MIN_WORKER_MEMORY_BYTES) {
      out.add("MaxWorkerMemoryBytes must be at least " + MIN_WORKER_MEMORY_BYTES);
    }
    return out;
  }

  /** Problems of a requested limit set before defaulting: negative fields (zero means default). */
  List<String> negativeProblems() {
    List<String> out = new ArrayList<>();
    for (LimitSettings.Field f : LimitSettings.FIELDS) {
      if (f.sign(this) < 0) {
        out.add(f.name() + " must be positive");
      }
    }
    return out;
  }

  /** Fails with {@code invalid registration} when {@link #problems()} is not empty. */
  public void validate() throws CodeModeException {
    List<String> p = problems();
    if (!p.isEmpty()) {
      throw CodeModeException.invalidRegistration(String.join("; ", p));
    }
  }

  /**
   * A copy with one field set from text, for command lines and configuration files: {@code name} is
   * the field name in either spelling ({@code MaxNativeCalls} or {@code maxNativeCalls}); durations
   * take a Go-style duration ({@code 250ms}, {@code 5s}, {@code 1m}) or milliseconds. Code should
   * use the typed withers.
   */
  public Limits withSetting(String name, String value) {
    return LimitSettings.apply(this, name, value);
  }

  /**
   * The former name of {@link #withSetting}.
   *
   * @deprecated use the typed withers ({@link #withMaxNativeCalls} ...) in code and {@link
   *     #withSetting} for text from a command line or a configuration file
   */
  @Deprecated(forRemoval = true)
  public Limits with(String name, String value) {
    return withSetting(name, value);
  }

  /** The fields of a record as a mutable set, for the withers. */
  static final class Fields {
    long maxSourceBytes;
    long maxExecutionSteps;
    Duration maxExecutionTime;
    long maxNativeCalls;
    long maxValueDepth;
    long maxValueBytes;
    long maxIntermediateValueBytes;
    long maxSearchQueryBytes;
    long maxSearchResults;
    long maxConcurrentExecutions;
    long maxWorkerMemoryBytes;
    long maxExecutionsPerWorker;
    long maxConcurrentExecutionsPerSubject;
    Duration maxSlotWait;
    Duration maxConfirmationWait;
    Duration maxWorkerIdleTime;

    Fields(Limits l) {
      maxSourceBytes = l.maxSourceBytes;
      maxExecutionSteps = l.maxExecutionSteps;
      maxExecutionTime = l.maxExecutionTime;
      maxNativeCalls = l.maxNativeCalls;
      maxValueDepth = l.maxValueDepth;
      maxValueBytes = l.maxValueBytes;
      maxIntermediateValueBytes = l.maxIntermediateValueBytes;
      maxSearchQueryBytes = l.maxSearchQueryBytes;
      maxSearchResults = l.maxSearchResults;
      maxConcurrentExecutions = l.maxConcurrentExecutions;
      maxWorkerMemoryBytes = l.maxWorkerMemoryBytes;
      maxExecutionsPerWorker = l.maxExecutionsPerWorker;
      maxConcurrentExecutionsPerSubject = l.maxConcurrentExecutionsPerSubject;
      maxSlotWait = l.maxSlotWait;
      maxConfirmationWait = l.maxConfirmationWait;
      maxWorkerIdleTime = l.maxWorkerIdleTime;
    }

    Limits build() {
      return new Limits(
          maxSourceBytes,
          maxExecutionSteps,
          maxExecutionTime,
          maxNativeCalls,
          maxValueDepth,
          maxValueBytes,
          maxIntermediateValueBytes,
          maxSearchQueryBytes,
          maxSearchResults,
          maxConcurrentExecutions,
          maxWorkerMemoryBytes,
          maxExecutionsPerWorker,
          maxConcurrentExecutionsPerSubject,
          maxSlotWait,
          maxConfirmationWait,
          maxWorkerIdleTime);
    }
  }

  private Limits edit(java.util.function.Consumer<Fields> change) {
    Fields f = new Fields(this);
    change.accept(f);
    return f.build();
  }

  private static long or(long v, long d) {
    return v == 0 ? d : v;
  }
}
