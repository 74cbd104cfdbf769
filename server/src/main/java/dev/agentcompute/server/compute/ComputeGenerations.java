package dev.agentcompute.server.compute;

import dev.agentcompute.server.config.LiveApplier;
import dev.agentcompute.server.config.ServerConfig;
import dev.agentcompute.server.errors.ConfigException;
import dev.agentcompute.server.errors.StartupException;
import dev.agentcompute.server.observe.Log;
import dev.agentcompute.server.observe.ReadinessCheck;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The compute generation in force and its replacement. Every tool call runs on one generation from
 * start to end (a read lock); a prepared replacement is swapped in only at a moment when no call is
 * in flight (a non-blocking write-lock attempt, retried), so two generations never work at once and
 * each sandbox keeps exactly one gate. Calls are never blocked by a pending swap.
 */
public final class ComputeGenerations implements LiveApplier, AutoCloseable {
  private static final Log LOG = Log.of(ComputeGenerations.class);
  private static final Duration SWAP_RETRY = Duration.ofMillis(200);

  private final Backends backends;
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final AtomicReference<ComputeGeneration> pending = new AtomicReference<>();
  private final AtomicLong numbers = new AtomicLong();
  private volatile ComputeGeneration current;
  private final Thread swapper;

  private ComputeGenerations(Backends backends, ComputeGeneration first) {
    this.backends = backends;
    this.current = first;
    numbers.set(first.number());
    this.swapper = Thread.ofVirtual().name("compute-swapper").start(this::swapLoop);
  }

  /**
   * Builds the first generation (a missing catalogue alias fails startup) and starts its reaper.
   * Every generation uses {@code backends}, which the caller closes after this.
   */
  public static ComputeGenerations start(
      ServerConfig config, String catalogueDigest, Backends backends) {
    ComputeGeneration first;
    try {
      first = ComputeGeneration.build(1, config, catalogueDigest, backends);
    } catch (StartupException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new StartupException("cannot start the compute capabilities: " + e.getMessage(), e);
    }
    first.runtime().reaper().start();
    LOG.info(
        "codemode ready",
        "capabilities",
        first.capabilities(),
        "generation",
        1,
        "worker_isolation",
        first.codeMode().workerIsolation().label());
    return new ComputeGenerations(backends, first);
  }

  /** The token signer every generation shares (cursors, confirmations, resource lists). */
  dev.agentcompute.codemode.Tokens tokens() {
    return backends.tokens();
  }

  /** The audit trail every generation writes to. */
  dev.agentcompute.codemode.AuditSink audit() {
    return backends.audit();
  }

  /** The screenshot store every generation shares, when screenshots are configured. */
  java.util.Optional<dev.agentcompute.capabilities.screenshots.ScreenshotStore> screenshots() {
    return backends.screenshots();
  }

  /**
   * The file service of the generation in force. A transfer runs outside the generation lock (it
   * may take many minutes, and a swap must not wait for it); a generation swapped out meanwhile
   * keeps working for it, since the Incus client is shared.
   */
  public dev.agentcompute.capabilities.service.FileService files() {
    return current.runtime().compute().files();
  }

  ComputeGeneration current() {
    return current;
  }

  boolean swapPending() {
    return pending.get() != null;
  }

  /** Runs one tool call on the generation in force, which cannot change until it returns. */
  McpSchema.CallToolResult call(
      Optional<String> fixedSubject,
      String tool,
      McpSyncServerExchange exchange,
      McpSchema.CallToolRequest request) {
    lock.readLock().lock();
    try {
      return current.tools(fixedSubject).get(tool).callHandler().apply(exchange, request);
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Runs {@code action} on the generation in force, which cannot change until it returns. */
  <T> T onCurrent(java.util.function.Function<ComputeGeneration, T> action) {
    lock.readLock().lock();
    try {
      return action.apply(current);
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * Runs {@code action} on the sandbox service of the generation in force (the admin API: the
   * server's own work, so owner isolation does not apply).
   */
  public <T> T withSandboxes(
      java.util.function.Function<dev.agentcompute.capabilities.service.SandboxService, T> action) {
    return onCurrent(g -> action.apply(g.runtime().compute().sandboxes()));
  }

  /** The three tools, each dispatching to the generation in force at call time. */
  List<McpServerFeatures.SyncToolSpecification> tools(Optional<String> fixedSubject) {
    return current.tools(fixedSubject).values().stream()
        .map(
            spec ->
                McpServerFeatures.SyncToolSpecification.builder()
                    .tool(spec.tool())
                    .callHandler(
                        (exchange, request) ->
                            call(fixedSubject, spec.tool().name(), exchange, request))
                    .build())
        .toList();
  }

  @Override
  public Prepared prepare(ServerConfig next, String catalogueDigest) {
    ComputeGeneration basis = Optional.ofNullable(pending.get()).orElse(current);
    if (!basis.differsFrom(next, catalogueDigest)) {
      return Prepared.NOTHING;
    }
    ComputeGeneration built;
    try {
      built = ComputeGeneration.build(numbers.incrementAndGet(), next, catalogueDigest, backends);
    } catch (RuntimeException e) {
      throw new ConfigException("compute: " + e.getMessage());
    }
    return new Prepared() {
      @Override
      public void commit() {
        ComputeGeneration replaced = pending.getAndSet(built);
        if (replaced != null) {
          replaced.close();
        }
        trySwap();
      }

      @Override
      public void abandon() {
        built.close();
      }
    };
  }

  /** Swaps the pending generation in if no call is in flight right now. */
  boolean trySwap() {
    ComputeGeneration next = pending.get();
    if (next == null || !lock.writeLock().tryLock()) {
      return false;
    }
    ComputeGeneration old;
    try {
      if (!pending.compareAndSet(next, null)) {
        return false;
      }
      old = current;
      old.runtime().reaper().close();
      current = next;
      next.runtime().reaper().start();
    } finally {
      lock.writeLock().unlock();
    }
    old.codeMode().close();
    LOG.info(
        "compute reconfigured",
        "generation",
        next.number(),
        "default_ttl",
        next.config().sandbox().defaultTtl(),
        "max_ttl",
        next.config().sandbox().maxTtl(),
        "pin_identities",
        String.join(",", next.config().sandbox().pinIdentities()),
        "catalogue",
        "sha256:" + next.catalogueDigest().substring(0, 12),
        "capabilities",
        next.capabilities());
    return true;
  }

  private void swapLoop() {
    while (!Thread.currentThread().isInterrupted()) {
      try {
        Thread.sleep(SWAP_RETRY);
        trySwap();
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        LOG.error("compute swap failed", e);
      }
    }
  }

  /** Readiness: the backend answers and its storage pool and image project exist. */
  public ReadinessCheck readiness() {
    return new ReadinessCheck() {
      @Override
      public String name() {
        return "compute";
      }

      @Override
      public Result check() {
        ComputeGeneration g = current;
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("backend", "incus");
        details.put("generation", g.number());
        details.put("capabilities", g.capabilities());
        details.put("swap_pending", swapPending());
        // With several servers on one Incus only the lease holder reaps; the others stand by.
        details.put("reaper", g.runtime().reaper().active() ? "active" : "standby");
        // bubblewrap or none: whether a worker that escaped its interpreter meets a jail.
        details.put("worker_isolation", g.codeMode().workerIsolation().label());
        boolean up = g.runtime().ready();
        if (!up) {
          details.put("error", "the storage pool or the image project is not reachable");
        }
        return new Result(up, details);
      }
    };
  }

  @Override
  public void close() {
    swapper.interrupt();
    Optional.ofNullable(pending.getAndSet(null)).ifPresent(ComputeGeneration::close);
    current.close();
  }
}
