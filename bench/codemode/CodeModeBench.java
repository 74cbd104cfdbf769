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

    public static void main(String[] args) {
        CodeMode.serveWorkerAndExit();
        // Exits either way: a failed run must not leave the JVM waiting on its callers' threads.
        try {
            run(args);
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    static void run(String[] args) throws Exception {
        boolean startsOnly = args.length > 0 && args[0].equals("starts");
        int samples = args.length > 0 && !startsOnly ? Integer.parseInt(args[0]) : 200;
        System.out.println("host JVM collector (the JVM's default, as the server's): " + String.join(", ",
                java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream()
                        .map(java.lang.management.GarbageCollectorMXBean::getName).toList()));
        // Building a server trains the workers' AOT cache; its command is what the pool starts.
        // Jailed (bubblewrap) and unjailed worker starts, measured back to back in this run.
        double unjailedCpu;
        double jailedCpu = -1;
        try (Server s = server(Limits.unset(), WorkerIsolation.NONE)) {
            unjailedCpu = workerStart("unjailed", s.workerCommand());
        }
        try (Server s = server(Limits.unset(), WorkerIsolation.BUBBLEWRAP)) {
            jailedCpu = workerStart("jailed (" + s.workerIsolation().label() + ")", s.workerCommand());
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
                double[] reuse = latency(s, "trivial", TRIVIAL, 8, samples, 0);
                latency(s, "10 native calls", TEN_CALLS, 8, samples, 0);
                if (perWorker > 1) {
                    System.out.printf("  reuse, 8 callers back to back, first call of each included: p99/p50 %.1fx%n",
                            reuse[1] / reuse[0]);
                    double[] steady = latency(s, "trivial", TRIVIAL, 8, samples, 0, true);
                    System.out.printf("  reuse, 8 callers back to back, steady state: p99/p50 %.1fx (target <= 5x;"
                            + " baseline 246 ms / 1.7 ms = 145x, earlier attempt 4.2-11x), load average %s%n",
                            steady[1] / steady[0], load());
                }
                double cpuPerStart = s.workerIsolation().label().equals("none") ? unjailedCpu
                        : (jailedCpu > 0 ? jailedCpu : unjailedCpu);
                sustained(s, TRIVIAL, 8, 10_000, perWorker == 1 ? cpuPerStart : -1);
                System.out.printf("workers started during this mode: %d (isolation %s)%n", s.workersStarted(),
                        s.workerIsolation().label());
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

    static String load() throws java.io.IOException {
        return String.join(" ", java.util.Arrays.copyOf(Files.readString(Path.of("/proc/loadavg")).split(" "), 3));
    }

    /** A kilobyte field of /proc/PID/smaps_rollup or /proc/PID/status. */
    static long kb(Path file, String field) throws java.io.IOException {
        for (String line : Files.readAllLines(file)) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return 0;
    }

    /** Returns the CPU p50 of one worker start, in ms. */
    static double workerStart(String label, List<String> cmd) throws Exception {
        List<Double> wall = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        List<Long> rss = new ArrayList<>();
        List<Long> priv = new ArrayList<>();
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
            // The worker's ready frame (written once it is started), then the execution's result.
            for (int frame = 0; frame < 2; frame++) {
                int len = in.readInt();
                in.readNBytes(len);
            }
            long t1 = System.nanoTime();
            // A jailed worker is bubblewrap's descendant: count the CPU of the whole tree, and the
            // RSS of the largest process (the JVM).
            long ticks = 0;
            long largest = 0;
            long largestPrivate = 0;
            List<Long> pids = new ArrayList<>();
            pids.add(p.pid());
            p.descendants().forEach(d -> pids.add(d.pid()));
            for (long pid : pids) {
                try {
                    String[] stat = Files.readString(Path.of("/proc/" + pid + "/stat")).split("\\) ")[1].split(" ");
                    ticks += Long.parseLong(stat[11]) + Long.parseLong(stat[12]);
                    long r = kb(Path.of("/proc/" + pid + "/status"), "VmRSS");
                    if (r > largest) {
                        largest = r;
                        Path rollup = Path.of("/proc/" + pid + "/smaps_rollup");
                        largestPrivate = kb(rollup, "Private_Clean") + kb(rollup, "Private_Dirty");
                    }
                } catch (java.io.IOException gone) {
                    // an intermediate process that already exited
                }
            }
            rss.add(largest);
            priv.add(largestPrivate);
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
        Collections.sort(priv);
        double cpuMean = cpu.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        System.out.println(label + " worker command: " + String.join(" ", cmd.subList(0, Math.min(cmd.size(), 16))) + " ...");
        System.out.printf("%s worker start to first result (JVM start, interpreter warmed, one trivial execution): wall p50 %.1f ms, CPU p50 %.0f ms, "
                + "mean %.1f ms (user+sys, 10 ms ticks; baseline 70-80 ms), load average %s%n", label, wall.get(wall.size() / 2),
                cpu.get(cpu.size() / 2), cpuMean, load());
        System.out.printf("%s memory per idle warmed worker: RSS p50 %.1f MiB (target <= 32, baseline 38.1), of which private to"
                + " the worker %.1f MiB (the rest is libjvm and AOT cache pages shared by every worker)%n", label,
                rss.get(rss.size() / 2) / 1024.0, priv.get(priv.size() / 2) / 1024.0);
        return cpuMean;
    }

    /** {@code pauseMillis} > 0 lets the idle pool refill between samples ("once the pool is warm"). */
    static double[] latency(Server s, String label, String program, int callers, int samples, long pauseMillis)
            throws Exception {
        return latency(s, label, program, callers, samples, pauseMillis, false);
    }

    /** {@code warm}: each caller runs once, untimed, first (steady state: no first call on a new worker). */
    static double[] latency(Server s, String label, String program, int callers, int samples, long pauseMillis,
            boolean warm) throws Exception {
        List<Double> ms = Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.CountDownLatch ready = new java.util.concurrent.CountDownLatch(callers);
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        List<Future<?>> fs = new ArrayList<>();
        for (int c = 0; c < callers; c++) {
            int id = c;
            fs.add(pool.submit(() -> {
                if (warm) {
                    s.execute(Context.background(), new Subject("bench-" + id), program);
                    ready.countDown();
                    ready.await();
                    Thread.sleep(500); // taken spares are replaced before the timed calls
                }
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
        double p50 = sorted.get(sorted.size() / 2);
        double p99 = sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(sorted.size() * 0.99) - 1));
        System.out.printf("execute latency, %-15s %d caller(s)%s: p50 %7.1f ms  p99 %7.1f ms  (n=%d)%n", label, callers,
                pauseMillis > 0 ? ", warm pool (" + pauseMillis + " ms between calls)"
                        : warm ? ", back to back, steady state" : ", back to back",
                p50, p99, sorted.size());
        return new double[] {p50, p99};
    }

    /**
     * user+sys of this JVM, and busy and total time of the whole machine (/proc/stat), in clock ticks. A
     * jailed worker's CPU never reaches this JVM's child accounting (bubblewrap is killed once the result is
     * in), so the machine's busy time is what shows whether the run had the cores to itself.
     */
    static long[] cpuTicks() throws java.io.IOException {
        String[] f = Files.readString(Path.of("/proc/self/stat")).split("\\) ")[1].split(" ");
        String[] all = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        long total = 0;
        for (int i = 1; i < all.length; i++) {
            total += Long.parseLong(all[i]);
        }
        long idle = Long.parseLong(all[4]) + Long.parseLong(all[5]);
        return new long[] {Long.parseLong(f[11]) + Long.parseLong(f[12]), total - idle, total};
    }

    /** {@code cpuPerStart} > 0: strict mode, printed against the worker-start ceiling. */
    static void sustained(Server s, String program, int callers, long millis, double cpuPerStart) throws Exception {
        long[] cpu0 = cpuTicks();
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
        long[] cpu1 = cpuTicks();
        double rate = done.get() / secs;
        System.out.printf("sustained trivial executes/s with %d callers: %.1f, load average %s%n", callers, rate, load());
        int cores = Runtime.getRuntime().availableProcessors();
        double hostMs = (cpu1[0] - cpu0[0]) * 10.0 / done.get();
        double busy = cores * (double) (cpu1[1] - cpu0[1]) / Math.max(1, cpu1[2] - cpu0[2]);
        double machineMs = (cpu1[1] - cpu0[1]) * 10.0 / done.get();
        System.out.printf("  during it: host CPU %.1f ms per execute; the machine was busy %.2f of %d cores, %.1f ms of CPU per"
                + " execute (everything running, other processes included)%n", hostMs, busy, cores, machineMs);
        if (cpuPerStart > 0) {
            double ceiling = cores * 1000.0 / cpuPerStart;
            System.out.printf("  strict sustained %.1f/s = %.0f%% of the ceiling %.1f/s (%d cores / %.1f ms CPU per worker start,"
                    + " this run) (target >= 80%%; baseline 19.5/s, earlier attempt 42-58%%)%n", rate, 100 * rate / ceiling,
                    ceiling, cores, cpuPerStart);
        }
    }
}
