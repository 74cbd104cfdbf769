import dev.agentcompute.starlark.Dialect;
import dev.agentcompute.starlark.Starlark;
import dev.agentcompute.starlark.eval.Module;
import dev.agentcompute.starlark.eval.Program;
import dev.agentcompute.starlark.eval.StarlarkThread;
import dev.agentcompute.starlark.eval.Value;
import dev.agentcompute.starlark.lib.Json;
import dev.agentcompute.starlark.lib.MathModule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The Java side of bench/starlark: runs a benchmark program's main() in our interpreter, the way
 * the Go driver runs it in starlark-go.
 *
 *   warm N FILE   run N times in this JVM after at least N warm-up runs lasting at least
 *                 WARMUP_NANOS in all; print "median_ns"
 *   mem N FILE    keep N fresh interpreters (thread + initialised module) alive; print bytes each
 */
public final class StarlarkBench {
  private static final long WARMUP_NANOS = 5_000_000_000L;

  public static void main(String[] args) throws Exception {
    String mode = args[0];
    int n = Integer.parseInt(args[1]);
    Path file = Path.of(args[2]);
    String src = Files.readString(file);
    // CodeMode's sum lives in codemode; no benchmark program calls it.
    Map<String, Value> predeclared = Map.of("json", Json.codeModeModule(), "math", MathModule.module());
    switch (mode) {
      case "warm" -> {
        // Warm-up: N runs, continued until WARMUP_NANOS have passed. The JIT needs a few seconds
        // of CPU to finish compiling the evaluator with C2 (more on a loaded 2-core machine); N
        // runs of a 20 ms program are only ~0.2 s, so the measured runs still executed C1 code
        // and the figure was not the warm one. Go has no JIT; its driver keeps N warm-up runs.
        long warmStart = System.nanoTime();
        for (int i = 0; i < n || System.nanoTime() - warmStart < WARMUP_NANOS; i++) {
          run(file, src, predeclared);
        }
        long[] times = new long[n];
        for (int i = 0; i < n; i++) {
          long start = System.nanoTime();
          run(file, src, predeclared);
          times[i] = System.nanoTime() - start;
        }
        Arrays.sort(times);
        System.out.println(times[n / 2]);
      }
      case "mem" -> {
        Runtime rt = Runtime.getRuntime();
        List<Object> keep = new ArrayList<>();
        settle();
        long before = rt.totalMemory() - rt.freeMemory();
        for (int i = 0; i < n; i++) {
          StarlarkThread thread = new StarlarkThread("bench");
          Program program = Starlark.compile(file.getFileName().toString(), src, Dialect.CODEMODE, predeclared.keySet());
          keep.add(thread);
          keep.add(program.init(thread, predeclared));
        }
        settle();
        long after = rt.totalMemory() - rt.freeMemory();
        System.out.println((after - before) / n + " " + keep.size() / 2);
      }
      default -> throw new IllegalArgumentException("mode must be warm or mem, not " + mode);
    }
  }

  private static Value run(Path file, String src, Map<String, Value> predeclared) throws Exception {
    StarlarkThread thread = new StarlarkThread("bench");
    Program program = Starlark.compile(file.getFileName().toString(), src, Dialect.CODEMODE, predeclared.keySet());
    Module module = program.init(thread, predeclared);
    return Starlark.call(thread, module.global("main"), List.of(), Map.of());
  }

  private static void settle() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(50);
    }
  }
}
