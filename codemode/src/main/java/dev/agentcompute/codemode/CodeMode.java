package dev.agentcompute.codemode;

import dev.agentcompute.codemode.worker.WorkerMain;

/**
 * Front door: {@link #builder(Options)} starts a server build. Workers are separate JVMs started
 * with the main class {@code dev.agentcompute.codemode.worker.WorkerMain} on the host's class path,
 * so a host's {@code main} never runs in a worker; {@link #serveWorkerAndExit()} is only for hosts
 * whose own launcher starts workers through their {@code main}.
 */
public final class CodeMode {

  /** The marker variable of worker processes; its value is exactly {@code 1}. */
  public static final String WORKER_MARKER = "CODEMODE_WORKER";

  private CodeMode() {}

  public static Builder builder(Options options) {
    return new Builder(options);
  }

  /** Whether this process was started as a CodeMode worker. */
  public static boolean isWorker() {
    return "1".equals(System.getenv(WORKER_MARKER));
  }

  /**
   * Returns immediately in an ordinary process. In a worker process, serves the private protocol on
   * standard input and output and then terminates the JVM; nothing after this call runs.
   */
  public static void serveWorkerAndExit() {
    if (isWorker()) {
      WorkerMain.serveAndExit();
    }
  }
}
