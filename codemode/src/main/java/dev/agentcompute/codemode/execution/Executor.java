package dev.agentcompute.codemode.execution;

import dev.agentcompute.codemode.AuditSink;
import dev.agentcompute.codemode.CodeMode;
import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Execution;
import dev.agentcompute.codemode.Failure;
import dev.agentcompute.codemode.Limits;
import dev.agentcompute.codemode.WorkerIsolation;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.binding.GoStrings;
import dev.agentcompute.codemode.catalog.Catalog;
import dev.agentcompute.codemode.catalog.Entry;
import dev.agentcompute.codemode.protocol.Frame;
import dev.agentcompute.codemode.protocol.FrameIO;
import dev.agentcompute.codemode.protocol.Frames;
import dev.agentcompute.codemode.protocol.GoJson;
import dev.agentcompute.codemode.protocol.Manifest;
import dev.agentcompute.codemode.protocol.ProtocolException;
import dev.agentcompute.codemode.protocol.Values;
import dev.agentcompute.codemode.tokens.NonceLedger;
import dev.agentcompute.codemode.tokens.TokenSigner;
import java.io.IOException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs executions in worker processes: the deadline starts before queueing and covers spawn,
 * exchange and dispatch; when the context ends the worker is killed and reaped.
 */
public final class Executor implements AutoCloseable {

  /**
   * What executions use from the host besides the catalog, policy and limits: the token signer and
   * the used-nonce ledger of confirmations, the clock tokens expire and workers idle by, and the
   * audit sink of native calls.
   */
  public record Services(
      TokenSigner signer,
      NonceLedger ledger,
      InstantSource clock,
      AuditSink audit,
      boolean agentGuidance,
      WorkerIsolation isolation) {

    /** Without agent guidance (the original's texts), workers unconfined (NONE). */
    public Services(TokenSigner signer, NonceLedger ledger, InstantSource clock, AuditSink audit) {
      this(signer, ledger, clock, audit, false, WorkerIsolation.NONE);
    }

    /** A random secret, a fresh ledger, the system clock, no audit. */
    static Services defaults() {
      return new Services(
          new TokenSigner(TokenSigner.randomSecret()),
          new NonceLedger(),
          InstantSource.system(),
          AuditSink.NONE);
    }
  }

  /**
   * Workers kept started on top of the execution slots, so an execution with a free slot never
   * waits for a JVM to start (at most MaxConcurrentExecutions of them).
   */
  static final int SPARE_WORKERS = 3;

  private final Limits limits;
  private final Catalog catalog;
  private final boolean guidance;
  private final Dispatcher dispatcher;
  private final Confirmations confirmations;
  private final List<Manifest.Item> manifest;
  private final WorkerPool pool;
  private final long childCap;
  private final List<String> command;
  private WorkerIsolation.InForce isolation = WorkerIsolation.InForce.NONE;

  private Executor(
      Catalog catalog,
      Policy policy,
      Limits limits,
      Services services,
      List<String> command,
      long childCap) {
    this.limits = limits;
    this.catalog = catalog;
    this.guidance = services.agentGuidance();
    this.dispatcher = new Dispatcher(catalog, policy, limits, services.audit(), services.clock());
    this.confirmations =
        new Confirmations(
            services.signer(),
            services.ledger(),
            services.clock(),
            catalog.generation(),
            policy,
            limits.maxConfirmationWait());
    List<Manifest.Item> items = new ArrayList<>();
    for (Entry e : catalog.entries()) {
      items.add(new Manifest.Item(e.id(), e.name(), e.input()));
    }
    this.manifest = List.copyOf(items);
    this.childCap = childCap;
    this.command = command;
    int spares = (int) Math.min(SPARE_WORKERS, limits.maxConcurrentExecutions());
    this.pool =
        new WorkerPool(
            command,
            (int) limits.maxConcurrentExecutions(),
            (int) Math.min(Integer.MAX_VALUE, limits.maxConcurrentExecutionsPerSubject()),
            limits.maxSlotWait(),
            spares,
            limits.maxExecutionsPerWorker() > 1 ? limits.maxWorkerIdleTime() : null,
            services.clock(),
            WorkerPool.Starts.perCore());
  }

  /** Checks frame caps, probes the worker entry, and starts the pool. */
  public static Executor start(Catalog catalog, Policy policy, Limits limits, Services services)
      throws CodeModeException {
    long longestId = 2;
    for (Entry e : catalog.entries()) {
      longestId = Math.max(longestId, GoJson.stringSize(e.id()));
    }
    long call =
        "{\"type\":\"native_call\",\"capability_id\":".length()
            + longestId
            + ",\"arguments\":".length()
            + limits.maxValueBytes()
            + 1;
    long fin = "{\"type\":\"final\",\"result\":".length() + limits.maxValueBytes() + 1;
    long err =
        "{\"type\":\"final_error\",\"code\":\"invalid_arguments\"".length()
            + ",\"detail\":".length()
            + 2
            + 6L * Frames.MAX_FINAL_DETAIL_BYTES
            + 1;
    long result = "{\"type\":\"native_result\",\"result\":".length() + limits.maxValueBytes() + 1;
    long exec = 6 * limits.maxSourceBytes() + 4096;
    long childCap = Math.max(call, Math.max(fin, err));
    if (childCap > FrameIO.UNBOUNDED || result > FrameIO.UNBOUNDED || exec > FrameIO.UNBOUNDED) {
      throw CodeModeException.invalidRegistration(
          "worker frame caps do not fit 32 bits; lower MaxValueBytes or " + "MaxSourceBytes");
    }
    WorkerCommand.prepareAotCache(limits.maxWorkerMemoryBytes());
    WorkerJail.Jailed jailed =
        WorkerJail.choose(
            services.isolation(),
            WorkerCommand.build(limits.maxWorkerMemoryBytes()),
            WorkerCommand.cacheDirectory());
    Executor executor = new Executor(catalog, policy, limits, services, jailed.command(), childCap);
    executor.isolation = jailed.isolation();
    return executor;
  }

  /** With another worker command: tests drive the host with workers that break the protocol. */
  static Executor start(
      Catalog catalog, Policy policy, Limits limits, List<String> command, long childCap)
      throws CodeModeException {
    Probe.run(command);
    return new Executor(catalog, policy, limits, Services.defaults(), command, childCap);
  }

  public Object execute(Context ctx, Subject subject, String source) throws CodeModeException {
    return execute(ctx, subject, Execution.of(source));
  }

  /**
   * Runs one execution: the root checks and execute's confirmation token before any worker starts,
   * then the exchange under a MaxExecutionTime clock that stops while a person is asked.
   */
  public Object execute(Context ctx, Subject subject, Execution execution)
      throws CodeModeException {
    AlreadyRan ran = new AlreadyRan();
    try {
      return execute(ctx, subject, execution, ran);
    } catch (CodeModeException e) {
      if (!guidance) {
        throw e;
      }
      CodeModeException named =
          e.deadlineExceeded()
              ? e.explain(
                  "execution time limit ("
                      + seconds(limits.maxExecutionTime())
                      + ") exceeded: do less per execution, or wait in several executions")
              : e;
      throw named.guided(ran.text());
    }
  }

  static String seconds(java.time.Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
  }

  private Object execute(Context ctx, Subject subject, Execution execution, AlreadyRan ran)
      throws CodeModeException {
    String source = execution.source();
    if (ctx == null) {
      throw CodeModeException.of(Failure.INTERNAL);
    }
    if (subject == null || !subject.isAuthenticated()) {
      throw CodeModeException.of(Failure.UNAUTHENTICATED);
    }
    if (GoStrings.utf8Length(source) > limits.maxSourceBytes()) {
      throw CodeModeException.of(Failure.RESOURCE_LIMIT)
          .explain(
              "source size limit ("
                  + limits.maxSourceBytes()
                  + " bytes) exceeded: the program is "
                  + GoStrings.utf8Length(source)
                  + " bytes");
    }
    Confirmations.Presented presented =
        confirmations.verify(ctx, subject, execution.confirmation());
    Context.PausableTimeout timer = ctx.withPausableTimeout(limits.maxExecutionTime());
    Context run = timer.context();
    try {
      Worker w = pool.acquire(subject.id(), run);
      if (CodeMode.isWorker()) {
        pool.discard(w);
        throw CodeModeException.of(Failure.INTERNAL);
      }
      CallScope scope =
          new CallScope(
              confirmations.gate(run, subject, presented, execution.confirmer(), timer),
              execution.observer());
      return exchange(run, subject, source, w, scope, ran);
    } finally {
      run.cancel();
    }
  }

  private Object exchange(
      Context run, Subject subject, String source, Worker w, CallScope scope, AlreadyRan ran)
      throws CodeModeException {
    boolean reuse = limits.maxExecutionsPerWorker() > 1;
    w.executions++;
    boolean keepAlive = reuse && w.executions < limits.maxExecutionsPerWorker();
    Context.Registration killer = run.onDone(w.process::destroyForcibly);
    boolean clean = false;
    CodeModeException retained = null;
    try {
      Frame.Exec exec =
          new Frame.Exec(
              Frame.VERSION,
              source,
              new Frame.ExecLimits(
                  limits.maxSourceBytes(),
                  limits.maxExecutionSteps(),
                  limits.maxNativeCalls(),
                  limits.maxValueDepth(),
                  limits.maxValueBytes()),
              manifest,
              keepAlive,
              guidance);
      FrameIO.write(w.out, Frames.encode(exec));
      if (!w.ready) {
        // Started for this execution: its ready frame comes first, and ends its start.
        boolean ready = w.readReady();
        pool.warmed(w);
        if (!ready) {
          throw endedWithoutTerminal(run, w, retained);
        }
      }
      long[] remaining = {limits.maxIntermediateValueBytes()};
      long calls = 0;
      while (true) {
        byte[] payload = FrameIO.read(w.in, childCap);
        if (payload == null) {
          throw endedWithoutTerminal(run, w, retained);
        }
        if (retained != null) {
          throw new ProtocolException("frame after native_abort");
        }
        Frame f = Frames.decode(payload, limits.maxValueDepth());
        switch (f) {
          case Frame.NativeCall c -> {
            if (++calls > limits.maxNativeCalls()) {
              throw new ProtocolException("native call over the limit");
            }
            try {
              Dispatcher.Result r =
                  dispatcher.call(run, subject, c.capabilityId(), c.arguments(), remaining, scope);
              ran.record(catalog.byId(c.capabilityId()), c.arguments(), r.value());
              FrameIO.write(w.out, Frames.encode(new Frame.NativeResult(r.value())));
            } catch (CodeModeException e) {
              if (run.isDone()) {
                throw contextFailure(run);
              }
              retained = e;
              FrameIO.write(
                  w.out, Frames.encode(new Frame.NativeAbort(e.safeDetail().orElse(null))));
              w.out.close();
            }
          }
          case Frame.Final fin -> {
            Object value = checkFinal(fin.result());
            clean = finish(w, keepAlive);
            return value;
          }
          case Frame.FinalError fe -> {
            clean = finish(w, keepAlive);
            CodeModeException failure =
                switch (fe.code()) {
                  case "invalid_program" ->
                      CodeModeException.withDetail(Failure.INVALID_PROGRAM, fe.detail());
                  case "invalid_arguments" ->
                      CodeModeException.withDetail(Failure.INVALID_ARGUMENTS, fe.detail());
                  case "resource_limit" -> CodeModeException.of(Failure.RESOURCE_LIMIT);
                  default -> CodeModeException.of(Failure.INTERNAL);
                };
            throw failure.explain(fe.explanation());
          }
          default -> throw new ProtocolException("unexpected frame from worker");
        }
      }
    } catch (Dispatcher.Violation | ProtocolException | IOException | Values.InvalidValue e) {
      if (run.isDone()) {
        throw contextFailure(run);
      }
      if (retained != null) {
        throw retained;
      }
      throw CodeModeException.of(Failure.INTERNAL);
    } finally {
      killer.close();
      if (clean && keepAlive) {
        pool.release(w, true);
      } else {
        pool.discard(w);
      }
    }
  }

  /** After a terminal frame: a one-shot worker must close stdout and exit 0. */
  private boolean finish(Worker w, boolean keepAlive) throws IOException, ProtocolException {
    if (keepAlive) {
      return true;
    }
    w.out.close();
    // The result is complete: the worker is discarded (killed and reaped in the background), not
    // waited for. Its end of output would come only after its JVM's teardown and, in a jail,
    // bubblewrap's (whose processes hold the pipe too): 6-9 ms on every one-shot execution. Bytes
    // that came with the terminal frame are still a violation.
    if (w.in.available() > 0) {
      throw new ProtocolException("data after the terminal frame");
    }
    return true;
  }

  private Object checkFinal(Object value) throws ProtocolException {
    try {
      if (Values.depth(value) > limits.maxValueDepth()) {
        throw new ProtocolException("final value too deep");
      }
      if (Values.size(Values.encode(value)) > limits.maxValueBytes()) {
        throw new ProtocolException("final value too large");
      }
      return Values.validate(value, limits.maxValueDepth());
    } catch (Values.InvalidValue e) {
      throw new ProtocolException("invalid final value");
    }
  }

  /** Stdout closed without a terminal frame: abort, out-of-memory, deadline or a crash. */
  private CodeModeException endedWithoutTerminal(
      Context run, Worker w, CodeModeException retained) {
    if (retained != null) {
      return retained;
    }
    int status = -1;
    try {
      // Only on the abnormal path: the exit status tells an out-of-memory exit from a crash.
      if (w.process.waitFor(10, TimeUnit.SECONDS)) {
        status = w.process.exitValue();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (run.isDone()) {
      return contextFailure(run);
    }
    if (status == WorkerCommand.OUT_OF_MEMORY_EXIT) {
      return CodeModeException.of(Failure.RESOURCE_LIMIT)
          .explain(
              "worker memory limit ("
                  + (limits.maxWorkerMemoryBytes() >> 20)
                  + " MiB) exceeded: the program builds values that are too large");
    }
    return CodeModeException.of(Failure.INTERNAL);
  }

  /** The failure for an ended context: canceled, or a deadline (resource limit). */
  static CodeModeException contextFailure(Context ctx) {
    return ctx.reason().orElse(Context.Reason.CANCELED) == Context.Reason.DEADLINE_EXCEEDED
        ? CodeModeException.deadline()
        : CodeModeException.of(Failure.CANCELED);
  }

  /** Worker processes started since the server was built, for tests and benchmarks. */
  public long workersStarted() {
    return pool.started();
  }

  /** Executions waiting for a worker slot now, for tests, benchmarks and metrics. */
  public int queuedExecutions() {
    return pool.queued();
  }

  /** The command line workers start with, for benchmarks and operators. */
  /** The isolation workers run under. */
  public WorkerIsolation.InForce workerIsolation() {
    return isolation;
  }

  public List<String> workerCommand() {
    return command;
  }

  /**
   * Workers holding an execution slot (executing, or idle for their subject), for tests and
   * benchmarks.
   */
  public int liveWorkers() {
    return pool.live();
  }

  /** Spare workers started and waiting outside the slots, for tests and benchmarks. */
  public int spareWorkers() {
    return pool.spares();
  }

  @Override
  public void close() {
    pool.close();
  }
}
