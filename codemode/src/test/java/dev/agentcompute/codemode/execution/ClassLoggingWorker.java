package dev.agentcompute.codemode.execution;

import dev.agentcompute.codemode.CodeMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A worker started with the pool's command line, but without the AOT cache and logging every class
 * it loads (and where from) to a file: what the class-loading tests read.
 */
final class ClassLoggingWorker {
  private ClassLoggingWorker() {}

  static Process start(Path log) throws IOException {
    List<String> cmd = new ArrayList<>(WorkerCommand.build(128L << 20));
    cmd.removeIf(a -> a.startsWith("-Xlog") || a.startsWith("-XX:AOTCache"));
    cmd.add(1, "-Xlog:class+load=info:file=" + log);
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.environment().clear();
    pb.environment().put(CodeMode.WORKER_MARKER, "1");
    return pb.start();
  }
}
