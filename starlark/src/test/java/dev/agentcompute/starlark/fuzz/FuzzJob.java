package dev.agentcompute.starlark.fuzz;

import dev.agentcompute.starlark.Dialect;
import dev.agentcompute.starlark.eval.StarlarkThread;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The interpreter fuzz job (run by bench/starlark-fuzz/run, not by the unit tests): programs {@code
 * seed .. seed+n-1}, each generated from the grammar or a token-level mutation of a corpus program,
 * run under CodeMode's or the full dialect with step and allocation budgets, a CPU-time watchdog
 * per program and a worker that is replaced if a program never returns. Prints its figures and
 * writes the outcome counts and every defect (with the program) under the output directory.
 *
 * <pre>
 * FuzzJob --programs N --seed S [--threads T] [--timeout-ms MS] [--steps N] [--out DIR] [--corpus DIR]...
 * </pre>
 */
public final class FuzzJob {
  private record Running(
      long index, String src, StarlarkThread thread, long startNanos, long startCpuNanos) {}

  /** Program CPU time, not wall time: the machine is shared and the job runs at nice 19. */
  private static final java.lang.management.ThreadMXBean CPU =
      java.lang.management.ManagementFactory.getThreadMXBean();

  private final long programs;
  private final long seed;
  private final long timeoutNanos;
  private final FuzzTarget target;
  private final List<String> corpus;
  private final Path out;
  private final AtomicLong next = new AtomicLong();
  private final LongAdder done = new LongAdder();
  private final Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> sources = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<String> defects = new ConcurrentLinkedQueue<>();
  private final Map<Thread, Running> running = new ConcurrentHashMap<>();
  private final Map<Long, Boolean> abandoned = new ConcurrentHashMap<>();

  private FuzzJob(
      long programs, long seed, long timeoutMs, long steps, List<String> corpus, Path out) {
    this.programs = programs;
    this.seed = seed;
    this.timeoutNanos = timeoutMs * 1_000_000;
    this.target = new FuzzTarget(steps, 32L << 20);
    this.corpus = corpus;
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    long programs = 10_000;
    long seed = 1;
    int threads = 1;
    long timeoutMs = 10_000;
    long steps = 100_000;
    Path out = Path.of("fuzz-out");
    List<Path> dirs = new ArrayList<>();
    for (int i = 0; i < args.length; i += 2) {
      String v = args[i + 1];
      switch (args[i]) {
        case "--programs" -> programs = Long.parseLong(v);
        case "--seed" -> seed = Long.parseLong(v);
        case "--threads" -> threads = Integer.parseInt(v);
        case "--timeout-ms" -> timeoutMs = Long.parseLong(v);
        case "--steps" -> steps = Long.parseLong(v);
        case "--out" -> out = Path.of(v);
        case "--corpus" -> dirs.add(Path.of(v));
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    Files.createDirectories(out);
    FuzzJob job = new FuzzJob(programs, seed, timeoutMs, steps, Corpus.load(dirs), out);
    System.exit(job.run(threads) ? 0 : 1);
  }

  /**
   * The program of index {@code i} and where it came from. Generated programs run in both dialects
   * (alternately); the corpus, which is starlark-go's tests, mostly in the full one.
   */
  String program(long i, String[] source) {
    Random r = new Random(seed + i);
    int k = r.nextInt(10);
    if (k < 4) {
      source[0] = "generated";
      return ProgramGenerator.generate(seed + i);
    }
    if (k < 9) {
      source[0] = "mutated corpus";
      return Mutator.mutate(corpus.get(r.nextInt(corpus.size())), r.nextLong());
    }
    source[0] = "mutated generated";
    return Mutator.mutate(ProgramGenerator.generate(r.nextLong()), r.nextLong());
  }

  private Dialect dialect(long i) {
    Random r = new Random(seed + i);
    boolean corpusProgram = r.nextInt(10) >= 4;
    boolean codemode = corpusProgram ? (i & 3) == 0 : (i & 1) == 0;
    return codemode ? Dialect.CODEMODE : Dialect.FULL;
  }

  private boolean run(int threads) throws Exception {
    String loadStart = loadAverage();
    long t0 = System.nanoTime();
    for (int k = 0; k < threads; k++) {
      startWorker();
    }
    while (done.sum() + abandoned.size() < programs) {
      Thread.sleep(100);
      watch();
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    report(seconds, loadStart, loadAverage());
    return defects.isEmpty();
  }

  private void startWorker() {
    Thread w = new Thread(this::work, "fuzz-worker");
    w.setDaemon(true); // an abandoned worker (a program that never returns) must not keep the JVM
    w.start();
  }

  private void work() {
    String[] source = new String[1];
    for (long i; (i = next.getAndIncrement()) < programs; ) {
      String src = program(i, source);
      sources.computeIfAbsent(source[0], k -> new LongAdder()).increment();
      StarlarkThread thread = new StarlarkThread("fuzz");
      long startCpu = CPU.getCurrentThreadCpuTime();
      running.put(Thread.currentThread(), new Running(i, src, thread, System.nanoTime(), startCpu));
      FuzzTarget.Outcome o = target.run(src, dialect(i), thread);
      long elapsed = CPU.getCurrentThreadCpuTime() - startCpu;
      running.remove(Thread.currentThread());
      if (abandoned.containsKey(i)) {
        return; // the watchdog gave up on this program and started another worker
      }
      slowest(i, elapsed);
      if (thread.isCancelled()) {
        o =
            new FuzzTarget.Outcome(
                "defect",
                "slow: cancelled by the watchdog after " + elapsed / 1_000_000 + " ms of CPU",
                null);
      }
      outcomes.computeIfAbsent(o.signature(), k -> new LongAdder()).increment();
      if (o.isDefect()) {
        defect(i, src, o.detail(), o.cause());
      }
      done.increment();
    }
  }

  private final java.util.concurrent.ConcurrentSkipListMap<Long, Long> slow =
      new java.util.concurrent.ConcurrentSkipListMap<>();

  /** Keeps the five slowest programs (CPU nanoseconds to index), for the report. */
  private void slowest(long i, long elapsed) {
    if (slow.size() < 5 || elapsed > slow.firstKey()) {
      slow.put(elapsed, i);
      while (slow.size() > 5) {
        slow.pollFirstEntry();
      }
    }
  }

  /**
   * Cancels a program past the timeout in CPU time; abandons its worker if it has not ended long
   * after (in wall time: a program blocked without using CPU is a hang too).
   */
  private void watch() {
    long now = System.nanoTime();
    for (Map.Entry<Thread, Running> e : running.entrySet()) {
      Running r = e.getValue();
      long cpu = CPU.getThreadCpuTime(e.getKey().threadId()) - r.startCpuNanos();
      if (cpu > timeoutNanos) {
        r.thread().cancel("fuzz watchdog");
      }
      long elapsed = now - r.startNanos();
      if (elapsed > 6 * timeoutNanos && abandoned.putIfAbsent(r.index(), true) == null) {
        running.remove(e.getKey());
        outcomes.computeIfAbsent("defect:hang", k -> new LongAdder()).increment();
        defect(
            r.index(), r.src(), "hang: no end " + (elapsed / 1_000_000) + " ms after start", null);
        startWorker();
      }
    }
  }

  private void defect(long i, String src, String what, Throwable cause) {
    String dialect = dialect(i).equals(Dialect.CODEMODE) ? "codemode" : "full";
    defects.add("seed " + (seed + i) + " (" + dialect + "): " + what);
    StringBuilder sb = new StringBuilder();
    sb.append("# ").append(what.replace('\n', ' ')).append('\n');
    sb.append("# seed ").append(seed + i).append(", dialect ").append(dialect).append('\n');
    if (cause != null) {
      for (StackTraceElement f : cause.getStackTrace()) {
        sb.append("#   at ").append(f).append('\n');
        if (sb.length() > 4000) {
          break;
        }
      }
    }
    sb.append(src);
    try {
      Files.writeString(out.resolve("defect-" + (seed + i) + ".star"), sb);
    } catch (IOException ignored) {
      // the defect is still counted and listed
    }
  }

  private void report(double seconds, String loadStart, String loadEnd) throws IOException {
    long n = done.sum() + abandoned.size();
    Map<String, Long> byKind = new java.util.TreeMap<>();
    StringBuilder tsv = new StringBuilder();
    outcomes.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e -> {
              String kind = e.getKey().substring(0, e.getKey().indexOf(':'));
              byKind.merge(kind, e.getValue().sum(), Long::sum);
              tsv.append(e.getValue().sum()).append('\t').append(e.getKey()).append('\n');
            });
    Files.writeString(out.resolve("outcomes-" + seed + ".tsv"), tsv);
    System.out.printf("programs run: %d (seeds %d..%d)%n", n, seed, seed + programs - 1);
    System.out.println("sources: " + new java.util.TreeMap<>(toLongs(sources)));
    System.out.println("outcomes by kind: " + byKind);
    System.out.println("distinct outcomes: " + outcomes.size());
    System.out.println("most frequent outcomes:");
    outcomes.entrySet().stream()
        .sorted(Comparator.comparingLong((Map.Entry<String, LongAdder> e) -> -e.getValue().sum()))
        .limit(12)
        .forEach(e -> System.out.printf("  %8d  %s%n", e.getValue().sum(), e.getKey()));
    System.out.println("slowest programs:");
    slow.descendingMap()
        .forEach((ns, i) -> System.out.printf("  %8.1f ms of CPU  seed %d%n", ns / 1e6, seed + i));
    System.out.println("defects: " + defects.size());
    defects.stream().limit(50).forEach(d -> System.out.println("  " + d));
    System.out.printf("time: %.1f s (%.0f programs/s)%n", seconds, n / seconds);
    System.out.println("load average: start " + loadStart + ", end " + loadEnd);
    System.out.printf(
        "FUZZ-SUMMARY programs=%d distinct=%d defects=%d seconds=%.1f%n",
        n, outcomes.size(), defects.size(), seconds);
  }

  private static Map<String, Long> toLongs(Map<String, LongAdder> m) {
    Map<String, Long> out = new java.util.HashMap<>();
    m.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }

  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return "unknown";
    }
  }
}
