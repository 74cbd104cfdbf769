package dev.agentcompute.starlark.cli;

import java.io.PrintStream;

final class RunMode {
  private RunMode() {}

  static int run(String file, String src, PrintStream out, PrintStream err) {
    err.println("run mode not implemented yet");
    return 1;
  }
}
