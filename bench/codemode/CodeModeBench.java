import dev.agentcompute.codemode.Capability;
import dev.agentcompute.codemode.CodeMode;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Limits;
import dev.agentcompute.codemode.Options;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.WorkerIsolation;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/** Prints CodeMode worker and execution figures. Run through bench/codemode/run. */
public final class CodeModeBench {

    record Key(String key) { }

    record Value(String key, long n) { }

    static final String TRIVIAL = "def main():\n    return 1\n";
    static final String TEN_CALLS = "def main():\n    return [records.get(key='k' + str(i)) for i in range(10)]\n";

    public static void main(String[] args) throws Exception {
        CodeMode.serveWorkerAndExit();
        boolean startsOnly = args.length > 0 && args[0].equals("starts");
        int samples = args.length > 0 && !startsOnly ? Integer.parseInt(args[0]) : 200;
        // Building a server trains the workers' AOT cache; its command is what the pool starts.
        // Jailed (bubblewrap) and unjailed worker starts, measured back to back in this run.
        try (Server s = server(Limits.unset(), WorkerIsolation.NONE)) {
            workerStart("unjailed", s.workerCommand());
        }
        try (Server s = server(Limits.unset(), WorkerIsolation.BUBBLEWRAP)) {
            workerStart("jailed (" + s.workerIsolation().label() + ")", s.workerCommand());
        } catch (dev.agentcompute.codemode.CodeModeException e) {
            System.out.println("jailed: " + e.getMessage());
        }
        if (startsOnly) {
            return;
        }
        for (long perWorker : new long[] {1, 100}) {
            try (Server s = server(Limits.unset().withMaxExecutionsPerWorker(perWorker))) {
                System.out.printf("%n== MaxExecutionsPerWorker=%d (MaxConcurrentExecutions=%d)%n", perWorker,
                        s.limits().maxConcurrentExecutions());
                for (int i = 0; i < 20; i++) {
                    s.execute(Context.background(), new Subject("bench"), TRIVIAL);
                }
                latency(s, "trivial", TRIVIAL, 1, samples, 300);
                latency(s, "10 native calls", TEN_CALLS, 1, samples, 300);
                latency(s, "trivial", TRIVIAL, 1, samples, 0);
                latency(s, "10 native calls", TEN_CALLS, 1, samples, 0);
                latency(s, "trivial", TRIVIAL, 8, samples, 0);
                latency(s, "10 native calls", TEN_CALLS, 8, samples, 0);
                sustained(s, TRIVIAL, 8, 10_000);
                System.out.printf("workers started during this mode: %d%n", s.workersStarted());
            }
        }
    }

    static Server server(Limits limits) throws Exception {
        return server(limits, WorkerIsolation.AUTO);
    }

    static Server server(Limits limits, WorkerIsolation isolation) throws Exception {
        return CodeMode.builder(Options.builder().policy(Policy.allowRegistered()).limits(limits)
                        .workerIsolation(isolation).build())
                .register(Capability.named("records.get", Key.class, Value.class).summary("Get one record.")
                        .handler((ctx, subject, in) -> new Value(in.key(), in.key().length())))
                .build();
    }

    static void workerStart(String label, List<String> cmd) throws Exception {
        List<Double> wall = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        List<Long> rss = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            long t0 = System.nanoTime();
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD);
            pb.environment().clear();
            pb.environment().put(CodeMode.WORKER_MARKER, "1");
            Process p = pb.start();
            OutputStream out = p.getOutputStream();
            // A kept-alive trivial execution: the worker stays up afterwards, so /proc can be read.
            byte[] probe = ("{\"type\":\"exec\",\"version\":1,\"source\":\"def main():\\n    return 1\\n\","
                    + "\"limits\":{\"max_source_bytes\":65536,\"max_execution_steps\":1000000,\"max_native_calls\":100,"
                    + "\"max_value_depth\":32,\"max_value_bytes\":1048576},\"manifest\":[],\"keep_alive\":true}")
                    .getBytes(StandardCharsets.UTF_8);
            out.write(new byte[] {0, 0, (byte) (probe.length >> 8), (byte) probe.length});
            out.write(probe);
            out.flush();
            DataInputStream in = new DataInputStream(p.getInputStream());
            int len = in.readInt();
            in.readNBytes(len);
            long t1 = System.nanoTime();
            // A jailed worker is bubblewrap's descendant: count the CPU of the whole tree, and the
            // RSS of the largest process (the JVM).
            long ticks = 0;
            long largest = 0;
            List<Long> pids = new ArrayList<>();
            pids.add(p.pid());
            p.descendants().forEach(d -> pids.add(d.pid()));
            for (long pid : pids) {
                try {
                    String[] stat = Files.readString(Path.of("/proc/" + pid + "/stat")).split("\\) ")[1].split(" ");
                    ticks += Long.parseLong(stat[11]) + Long.parseLong(stat[12]);
                    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                        if (line.startsWith("VmRSS:")) {
                            largest = Math.max(largest, Long.parseLong(line.replaceAll("[^0-9]", "")));
                        }
                    }
                } catch (java.io.IOException gone) {
                    // an intermediate process that already exited
                }
            }
            rss.add(largest);
            out.close();
            p.waitFor();
            if (i >= 2) {
                wall.add((t1 - t0) / 1e6);
                cpu.add(ticks * 10.0);
            }
        }
        Collections.sort(wall);
        Collections.sort(cpu);
        Collections.sort(rss);
        System.out.println(label + " worker command: " + String.join(" ", cmd.subList(0, Math.min(cmd.size(), 12))) + " ...");
        System.out.printf("%s worker start to first result (JVM start, interpreter warmed, one trivial execution): wall p50 %.1f ms, CPU p50 %.0f ms "
                + "(user+sys, 10 ms ticks), load average %s%n", label, wall.get(wall.size() / 2), cpu.get(cpu.size() / 2),
                String.join(" ", java.util.Arrays.copyOf(Files.readString(Path.of("/proc/loadavg")).split(" "), 3)));
        System.out.printf("%s memory per idle warmed worker: RSS p50 %.1f MiB%n", label, rss.get(rss.size() / 2) / 1024.0);
    }

    /** {@code pauseMillis} > 0 lets the idle pool refill between samples ("once the pool is warm"). */
    static void latency(Server s, String label, String program, int callers, int samples, long pauseMillis)
            throws Exception {
        List<Double> ms = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        List<Future<?>> fs = new ArrayList<>();
        for (int c = 0; c < callers; c++) {
            int id = c;
            fs.add(pool.submit(() -> {
                for (int i = 0; i < samples / callers; i++) {
                    if (pauseMillis > 0) {
                        Thread.sleep(pauseMillis);
                    }
                    long t0 = System.nanoTime();
                    try {
                        s.execute(Context.background(), new Subject("bench-" + id), program);
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                    ms.add((System.nanoTime() - t0) / 1e6);
                }
                return null;
            }));
        }
        for (Future<?> f : fs) {
            f.get();
        }
        pool.shutdown();
        List<Double> sorted = new ArrayList<>(ms);
        Collections.sort(sorted);
        System.out.printf("execute latency, %-15s %d caller(s)%s: p50 %7.1f ms  p99 %7.1f ms  (n=%d)%n", label, callers,
                pauseMillis > 0 ? ", warm pool (" + pauseMillis + " ms between calls)" : ", back to back",
                sorted.get(sorted.size() / 2), sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(sorted.size() * 0.99) - 1)),
                sorted.size());
    }

    static void sustained(Server s, String program, int callers, long millis) throws Exception {
        AtomicLong done = new AtomicLong();
        long end = System.nanoTime() + millis * 1_000_000;
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        List<Future<?>> fs = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int c = 0; c < callers; c++) {
            int id = c;
            fs.add(pool.submit(() -> {
                while (System.nanoTime() < end) {
                    try {
                        s.execute(Context.background(), new Subject("bench-" + id), program);
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                    done.incrementAndGet();
                }
                return null;
            }));
        }
        for (Future<?> f : fs) {
            f.get();
        }
        pool.shutdown();
        double secs = (System.nanoTime() - t0) / 1e9;
        System.out.printf("sustained trivial executes/s with %d callers: %.1f%n", callers, done.get() / secs);
    }
}
