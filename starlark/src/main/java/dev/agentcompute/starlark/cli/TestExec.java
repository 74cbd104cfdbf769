package dev.agentcompute.starlark.cli;

import java.io.PrintStream;

final class TestExec {
  private TestExec() {}

  static int run(String file, String src, TestEnv env, PrintStream err) {
    err.println(file + ":1:1: exec mode not implemented yet");
    return 1;
  }
}
