package dev.agentcompute.starlark.eval;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The state of one execution: step and allocation budgets, cancellation, the print and load
 * handlers, embedder locals and the call stack. Not shared between executions; only {@link
 * #cancel(String)} may be called from another thread.
 */
public final class StarlarkThread {
  /** Receives the output of {@code print}. */
  @FunctionalInterface
  public interface PrintHandler {
    void print(StarlarkThread thread, String message);
  }

  /** Resolves {@code load("module", ...)}: returns the module's exported names. */
  @FunctionalInterface
  public interface LoadHandler {
    Map<String, Value> load(StarlarkThread thread, String module) throws EvalException;
  }

  /** A call-stack entry pushed by the evaluator (it carries positions for backtraces). */
  public interface Frame {
    Callable callable();
  }

  /** Steps charged per unit of proportional work done inside builtins, per this many bytes. */
  static final int BYTES_PER_STEP = 64;

  private final String name;
  private long steps;
  private long maxSteps = Long.MAX_VALUE;
  private long allocated;
  private long maxAllocBytes = Long.MAX_VALUE;
  private volatile String cancelReason;
  private PrintHandler printHandler = (t, msg) -> System.err.println(msg);
  private LoadHandler loadHandler;
  private Map<String, Object> locals; // created on first use: most executions never need it
  private final ArrayList<Frame> frames = new ArrayList<>(16);

  /** Read-only view of {@link #frames}, made once: the evaluator reads it on every call. */
  private final List<Frame> framesView = Collections.unmodifiableList(frames);

  public StarlarkThread() {
    this("main");
  }

  public StarlarkThread(String name) {
    this.name = name;
  }

  public String name() {
    return name;
  }

  // ---- steps ----

  public void setMaxSteps(long maxSteps) {
    this.maxSteps = maxSteps <= 0 ? Long.MAX_VALUE : maxSteps;
  }

  public long maxSteps() {
    return maxSteps;
  }

  public long steps() {
    return steps;
  }

  /** Charges one step; the evaluator calls this per executed operation. */
  public void step() throws EvalException {
    if (++steps > maxSteps || cancelReason != null) {
      budgetExceeded();
    }
  }

  /** Charges {@code n} steps of proportional work; also observes cancellation. */
  public void addSteps(long n) throws EvalException {
    long s = steps + n;
    if (s < steps) {
      s = Long.MAX_VALUE; // overflow
    }
    steps = s;
    if (s > maxSteps || cancelReason != null) {
      budgetExceeded();
    }
  }

  /** Charges the steps for processing {@code bytes} bytes of data (one step per 64 bytes). */
  public void addByteSteps(long bytes) throws EvalException {
    addSteps(1 + bytes / BYTES_PER_STEP);
  }

  private void budgetExceeded() throws EvalException {
    String reason = cancelReason;
    if (reason != null) {
      throw new CancelledException(reason);
    }
    if (steps > maxSteps) {
      throw new StepLimitException(maxSteps);
    }
  }

  // ---- allocation ----

  public void setMaxAllocBytes(long maxAllocBytes) {
    this.maxAllocBytes = maxAllocBytes <= 0 ? Long.MAX_VALUE : maxAllocBytes;
  }

  public long allocatedBytes() {
    return allocated;
  }

  /** Bytes left in the allocation budget ({@code Long.MAX_VALUE} when unlimited). */
  public long remainingAllocBytes() {
    return maxAllocBytes == Long.MAX_VALUE ? Long.MAX_VALUE : maxAllocBytes - allocated;
  }

  /**
   * Charges {@code bytes} of newly created value data against the allocation budget. Called before
   * big values are built, so an oversized request fails before any memory is taken.
   */
  public void allocate(long bytes) throws EvalException {
    long a = allocated + Math.max(0, bytes);
    if (a < allocated) {
      a = Long.MAX_VALUE;
    }
    allocated = a;
    if (a > maxAllocBytes) {
      throw new AllocationLimitException(maxAllocBytes);
    }
    if (cancelReason != null) {
      throw new CancelledException(cancelReason);
    }
  }

  // ---- cancellation ----

  /** Asks the execution to stop; safe from any thread. The first reason wins. */
  public void cancel(String reason) {
    if (cancelReason == null) {
      cancelReason = reason == null ? "cancelled" : reason;
    }
  }

  public boolean isCancelled() {
    return cancelReason != null;
  }

  /** Throws {@link CancelledException} if {@link #cancel} was called. */
  public void checkCancelled() throws EvalException {
    String reason = cancelReason;
    if (reason != null) {
      throw new CancelledException(reason);
    }
  }

  // ---- handlers and locals ----

  public void setPrintHandler(PrintHandler handler) {
    this.printHandler = handler == null ? (t, msg) -> {} : handler;
  }

  public PrintHandler printHandler() {
    return printHandler;
  }

  public void setLoadHandler(LoadHandler handler) {
    this.loadHandler = handler;
  }

  public LoadHandler loadHandler() {
    return loadHandler;
  }

  /** Free-form per-execution state for embedders. */
  public Map<String, Object> locals() {
    if (locals == null) {
      locals = new HashMap<>();
    }
    return locals;
  }

  // ---- call stack ----

  public void pushFrame(Frame frame) {
    frames.add(frame);
  }

  public void popFrame() {
    frames.remove(frames.size() - 1);
  }

  /**
   * Pops every frame above {@code depth}. The evaluator unwinds with this rather than {@link
   * #popFrame}: a StackOverflowError can strike inside a pop at the deepest level, and the next
   * level's truncation then removes that frame too.
   */
  void popFramesTo(int depth) {
    while (frames.size() > depth) {
      frames.remove(frames.size() - 1);
    }
  }

  /** The current call stack, outermost first. */
  public List<Frame> frames() {
    return framesView;
  }

  public int depth() {
    return frames.size();
  }
}
