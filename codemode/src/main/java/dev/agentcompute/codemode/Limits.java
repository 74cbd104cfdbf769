package dev.agentcompute.codemode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Execution and discovery budgets. A zero field means "use the default" when a server is built
 * ({@link #resolve()}); a negative field fails the build. {@link #validate()} checks an already
 * resolved set and rejects zero too.
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
 *        replaced (1: a fresh process for every execution)
 */
public record Limits(
        long maxSourceBytes, long maxExecutionSteps, Duration maxExecutionTime, long maxNativeCalls,
        long maxValueDepth, long maxValueBytes, long maxIntermediateValueBytes, long maxSearchQueryBytes,
        long maxSearchResults, long maxConcurrentExecutions, long maxWorkerMemoryBytes,
        long maxExecutionsPerWorker) {

    public Limits {
        maxExecutionTime = maxExecutionTime == null ? Duration.ZERO : maxExecutionTime;
    }

    /** All fields zero: every budget takes its default when the server is built. */
    public static Limits unset() {
        return new Limits(0, 0, Duration.ZERO, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    public static Limits defaults() {
        return new Limits(65_536, 1_000_000, Duration.ofSeconds(5), 100, 32, 1_048_576, 8_388_608,
                256, 20, 8, 128L << 20, 1);
    }

    /** Replaces every zero field with its default. */
    public Limits resolve() {
        Limits d = defaults();
        return new Limits(
                or(maxSourceBytes, d.maxSourceBytes), or(maxExecutionSteps, d.maxExecutionSteps),
                maxExecutionTime.isZero() ? d.maxExecutionTime : maxExecutionTime,
                or(maxNativeCalls, d.maxNativeCalls), or(maxValueDepth, d.maxValueDepth),
                or(maxValueBytes, d.maxValueBytes), or(maxIntermediateValueBytes, d.maxIntermediateValueBytes),
                or(maxSearchQueryBytes, d.maxSearchQueryBytes), or(maxSearchResults, d.maxSearchResults),
                or(maxConcurrentExecutions, d.maxConcurrentExecutions),
                or(maxWorkerMemoryBytes, d.maxWorkerMemoryBytes), or(maxExecutionsPerWorker, d.maxExecutionsPerWorker));
    }

    /** Problems of a resolved limit set: every field must be positive ("MaxX must be positive"). */
    public List<String> problems() {
        List<String> out = new ArrayList<>();
        check(out, "MaxSourceBytes", maxSourceBytes);
        check(out, "MaxExecutionSteps", maxExecutionSteps);
        if (maxExecutionTime.isNegative() || maxExecutionTime.isZero()) {
            out.add("MaxExecutionTime must be positive");
        }
        check(out, "MaxNativeCalls", maxNativeCalls);
        check(out, "MaxValueDepth", maxValueDepth);
        check(out, "MaxValueBytes", maxValueBytes);
        check(out, "MaxIntermediateValueBytes", maxIntermediateValueBytes);
        check(out, "MaxSearchQueryBytes", maxSearchQueryBytes);
        check(out, "MaxSearchResults", maxSearchResults);
        check(out, "MaxConcurrentExecutions", maxConcurrentExecutions);
        check(out, "MaxWorkerMemoryBytes", maxWorkerMemoryBytes);
        check(out, "MaxExecutionsPerWorker", maxExecutionsPerWorker);
        if (maxWorkerMemoryBytes > 0 && maxWorkerMemoryBytes < (16L << 20)) {
            out.add("MaxWorkerMemoryBytes must be at least 16777216");
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
     * A copy with one field set from text, for command lines: {@code name} is the field name in
     * either spelling ({@code MaxNativeCalls} or {@code maxNativeCalls}); {@code MaxExecutionTime}
     * takes a Go-style duration ({@code 250ms}, {@code 5s}, {@code 1m}) or milliseconds.
     */
    public Limits with(String name, String value) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.equals("maxexecutiontime")) {
            return new Limits(maxSourceBytes, maxExecutionSteps, parseDuration(value), maxNativeCalls, maxValueDepth,
                    maxValueBytes, maxIntermediateValueBytes, maxSearchQueryBytes, maxSearchResults,
                    maxConcurrentExecutions, maxWorkerMemoryBytes, maxExecutionsPerWorker);
        }
        long v;
        try {
            v = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("limit " + name + ": value '" + value + "' is not an integer");
        }
        long[] f = {maxSourceBytes, maxExecutionSteps, maxNativeCalls, maxValueDepth, maxValueBytes,
                maxIntermediateValueBytes, maxSearchQueryBytes, maxSearchResults, maxConcurrentExecutions,
                maxWorkerMemoryBytes, maxExecutionsPerWorker};
        String[] names = {"maxsourcebytes", "maxexecutionsteps", "maxnativecalls", "maxvaluedepth", "maxvaluebytes",
                "maxintermediatevaluebytes", "maxsearchquerybytes", "maxsearchresults", "maxconcurrentexecutions",
                "maxworkermemorybytes", "maxexecutionsperworker"};
        int i = List.of(names).indexOf(n);
        if (i < 0) {
            throw new IllegalArgumentException("unknown limit '" + name + "' (expected one of MaxSourceBytes, "
                    + "MaxExecutionSteps, MaxExecutionTime, MaxNativeCalls, MaxValueDepth, MaxValueBytes, "
                    + "MaxIntermediateValueBytes, MaxSearchQueryBytes, MaxSearchResults, MaxConcurrentExecutions, "
                    + "MaxWorkerMemoryBytes, MaxExecutionsPerWorker)");
        }
        f[i] = v;
        return new Limits(f[0], f[1], maxExecutionTime, f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10]);
    }

    private static Duration parseDuration(String text) {
        String t = text.trim();
        try {
            if (t.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
            } else if (t.endsWith("s")) {
                return Duration.ofMillis(Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 1000));
            } else if (t.endsWith("m")) {
                return Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 1)));
            }
            return Duration.ofMillis(Long.parseLong(t));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("limit MaxExecutionTime: '" + text + "' is not a duration like 250ms or 5s");
        }
    }

    private static long or(long v, long d) {
        return v == 0 ? d : v;
    }

    private static void check(List<String> out, String name, long v) {
        if (v <= 0) {
            out.add(name + " must be positive");
        }
    }
}
