package dev.agentcompute.codemode.execution;

import dev.agentcompute.codemode.CodeMode;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The command line of a worker JVM, derived from the running JVM: same java binary, same class
 * path (Surefire's manifest-only jar, an application jar or a directory list), the worker main
 * class, fast-start flags, a heap ceiling, and a class-data-sharing archive created on first use.
 */
public final class WorkerCommand {

    static final String WORKER_MAIN = "dev.agentcompute.codemode.worker.WorkerMain";
    /** Exit status of a JVM that ran out of heap with {@code -XX:+ExitOnOutOfMemoryError}. */
    public static final int OUT_OF_MEMORY_EXIT = 3;

    private WorkerCommand() {
    }

    public static List<String> build(long maxHeapBytes) {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-XX:-UsePerfData");
        cmd.add("-XX:+ExitOnOutOfMemoryError");
        cmd.add("-Xss4m");
        cmd.add("-Xms8m");
        cmd.add("-Xmx" + Math.max(16, maxHeapBytes >> 20) + "m");
        cmd.add("-XX:CICompilerCount=1");
        cmd.add("-Xlog:disable");
        cmd.add("-XX:+DisplayVMOutputToStderr");
        String cp = System.getProperty("java.class.path", "");
        // CDS archives only cover jar files; a directory (or a manifest pointing at one) fails the dump.
        Path archive = onlyPlainJars(cp) ? archivePath(java, cp) : null;
        if (archive != null) {
            cmd.add("-XX:SharedArchiveFile=" + archive);
            cmd.add("-XX:+AutoCreateSharedArchive");
        }
        String modulePath = System.getProperty("jdk.module.path");
        if (!cp.isEmpty()) {
            cmd.add("-cp");
            cmd.add(cp);
        }
        if (modulePath != null && !modulePath.isEmpty()) {
            cmd.add("--module-path");
            cmd.add(modulePath);
            cmd.add("--add-modules");
            cmd.add("ALL-MODULE-PATH");
        }
        cmd.add(WORKER_MAIN);
        return List.copyOf(cmd);
    }

    /** Starts a worker with an environment holding only the marker, stdin/stdout piped. */
    public static Process start(List<String> command, boolean keepStderr) throws java.io.IOException {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().clear();
        pb.environment().put(CodeMode.WORKER_MARKER, "1");
        pb.redirectInput(ProcessBuilder.Redirect.PIPE);
        pb.redirectOutput(ProcessBuilder.Redirect.PIPE);
        pb.redirectError(keepStderr ? ProcessBuilder.Redirect.PIPE : ProcessBuilder.Redirect.DISCARD);
        return pb.start();
    }

    private static boolean onlyPlainJars(String cp) {
        if (cp.isEmpty()) {
            return false;
        }
        for (String entry : cp.split(File.pathSeparator)) {
            if (!entry.endsWith(".jar") || entry.contains("surefire") || !new File(entry).isFile()) {
                return false;
            }
        }
        return true;
    }

    private static Path archivePath(String javaBin, String cp) {
        try {
            Path dir = Path.of(System.getProperty("java.io.tmpdir"), "agentcompute-codemode-cds");
            Files.createDirectories(dir);
            java.security.MessageDigest md = java.security.MessageDigest.getInstance("SHA-256");
            md.update((javaBin + File.pathSeparator + System.getProperty("java.version") + File.pathSeparator + cp)
                    .getBytes(StandardCharsets.UTF_8));
            for (String entry : cp.split(File.pathSeparator)) {
                if (!entry.isEmpty()) {
                    File f = new File(entry);
                    md.update(Long.toString(f.lastModified()).getBytes(StandardCharsets.UTF_8));
                }
            }
            return dir.resolve("worker-" + HexFormat.of().formatHex(md.digest(), 0, 12) + ".jsa");
        } catch (Exception e) {
            return null;
        }
    }
}
