package dev.agentcompute.starlark.cli;

import dev.agentcompute.starlark.testmode.TestMode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The {@code starlark} command. {@code starlark FILE} runs FILE and prints the value of its {@code
 * main()} ({@link RunMode}); {@code starlark --test FILE} is the conformance runner's test mode
 * ({@link TestMode}).
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws Exception {
    int[] rc = {2};
    // A big stack lets deeply recursive (but bounded) programs run; limits stay explicit.
    Thread t =
        new Thread(null, () -> rc[0] = run(args, System.out, System.err), "starlark", 1L << 30);
    t.start();
    t.join();
    System.out.flush();
    System.err.flush();
    // halt, not exit: since JDK 21 Runtime.exit logs through System.Logger, which initialises the
    // logging framework (reads logging.properties) at every one-shot run; there are no shutdown
    // hooks to run and both streams are flushed.
    Runtime.getRuntime().halt(rc[0]);
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    boolean test = false;
    String file = null;
    for (String a : args) {
      if (a.equals("--test")) {
        test = true;
      } else if (file == null) {
        file = a;
      } else {
        err.println("usage: starlark [--test] FILE");
        return 2;
      }
    }
    if (file == null) {
      err.println("usage: starlark [--test] FILE");
      return 2;
    }
    String src;
    try {
      src = new String(Files.readAllBytes(Path.of(file)), StandardCharsets.UTF_8);
    } catch (IOException e) {
      err.println("starlark: cannot read " + file + ": " + e.getMessage());
      return 2;
    }
    if (test) {
      return TestMode.run(file, src, System.getenv(), err);
    }
    return RunMode.run(file, src, out, err);
  }
}
