package dev.agentcompute.server;

import dev.agentcompute.codemode.CodeMode;
import java.util.Arrays;

/** {@code agentcompute-server}: the process entry point. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    // A CodeMode worker re-launch must not run any host setup: this stays the first statement.
    CodeMode.serveWorkerAndExit();
    System.exit(
        Commands.run(Arrays.asList(args), System.getenv(), System.in, System.out, System.err));
  }
}
