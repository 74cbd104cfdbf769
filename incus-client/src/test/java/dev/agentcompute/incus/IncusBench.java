package dev.agentcompute.incus;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs the same Incus work through this client and through the {@code incus} CLI, in one run on the
 * same daemon, and prints the figures and the ratios (CLI time / our time; above 1 = we are
 * faster). Rounds alternate between the two so that load from elsewhere hits both alike.
 *
 * <pre>bench/incus/run [LIFECYCLE_ROUNDS] [EXECS]</pre>
 */
public final class IncusBench {

  private final IncusClient client;
  private final Path socket;
  private final String project;

  private IncusBench(IncusClient client, Path socket, String project) {
    this.client = client;
    this.socket = socket;
    this.project = project;
  }

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int execs = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    Path socket = IncusTestDaemon.socket();
    try (IncusClient root = IncusClient.unixSocket(socket).build()) {
      String project = IncusTestDaemon.createSharingProject(root);
      try {
        new IncusBench(root.inProject(project), socket, project).run(rounds, execs);
      } finally {
        IncusTestDaemon.deleteProject(root, project);
      }
    }
  }

  private void run(int rounds, int execs) throws Exception {
    System.out.printf(
        "incus bench: daemon %s, project %s, %d lifecycle rounds, %d small execs%n",
        socket, project, rounds, execs);
    // Warm-up (JIT, connection pool, CLI page cache), not measured.
    for (int i = 0; i < 2; i++) {
      lifecycleOurs("warm-ours" + i);
      lifecycleCli("warm-cli" + i);
    }

    List<Double> ours = new ArrayList<>();
    List<Double> cli = new ArrayList<>();
    for (int i = 0; i < rounds; i++) {
      // Alternate who goes first: incusd finishes some cleanup after a delete returns.
      if (i % 2 == 0) {
        ours.add(lifecycleOurs("bench-o" + i));
        cli.add(lifecycleCli("bench-c" + i));
      } else {
        cli.add(lifecycleCli("bench-c" + i));
        ours.add(lifecycleOurs("bench-o" + i));
      }
    }
    report("launch+exec+delete (busybox)", ours, cli);

    client
        .instances()
        .create(
            InstanceSpec.container("bench-exec", InstanceSpec.Source.imageAlias("busybox"))
                .startingImmediately());
    try {
      ExecRequest echo = ExecRequest.of(Duration.ofSeconds(30), "echo", "hi");
      List<Double> oursExec = new ArrayList<>();
      List<Double> cliExec = new ArrayList<>();
      for (int i = 0; i < 5; i++) { // warm-up
        client.instances().exec("bench-exec", echo);
        cli("exec", "bench-exec", "--", "echo", "hi");
      }
      for (int i = 0; i < execs; i++) {
        if (i % 2 == 0) {
          oursExec.add(execOurs(echo));
          cliExec.add(execCli());
        } else {
          cliExec.add(execCli());
          oursExec.add(execOurs(echo));
        }
      }
      report(execs + " small execs (echo hi), per exec", oursExec, cliExec);
      System.out.printf(
          "  totals: ours %.0f ms, cli %.0f ms for %d execs%n", sum(oursExec), sum(cliExec), execs);
    } finally {
      client.instances().forceDelete("bench-exec");
    }
  }

  private double execOurs(ExecRequest echo) {
    long start = System.nanoTime();
    ExecResult result = client.instances().exec("bench-exec", echo);
    double took = millisSince(start);
    check(
        result.exitCode() == 0 && result.stdoutText().equals("hi\n"),
        "our exec returned "
            + result
            + " stdout=["
            + result.stdoutText()
            + "] stderr=["
            + result.stderrText()
            + "]");
    return took;
  }

  private double execCli() throws IOException, InterruptedException {
    long start = System.nanoTime();
    String out = cli("exec", "bench-exec", "--", "echo", "hi");
    double took = millisSince(start);
    check(out.equals("hi\n"), "CLI exec printed " + out);
    return took;
  }

  private double lifecycleOurs(String name) {
    long start = System.nanoTime();
    PendingOperation creation =
        client
            .instances()
            .createAsync(
                InstanceSpec.container(name, InstanceSpec.Source.imageAlias("busybox"))
                    .startingImmediately());
    long posted = System.nanoTime();
    Operation created = creation.await();
    long launched = System.nanoTime();
    if (launched - start > 5_000_000_000L) {
      System.out.printf(
          "  slow launch of %s: POST %.0f ms, wait %.0f ms, operation %s%n",
          name, (posted - start) / 1e6, (launched - posted) / 1e6, created);
    }
    ExecResult result =
        client.instances().exec(name, ExecRequest.of(Duration.ofSeconds(30), "echo", "hi"));
    long executed = System.nanoTime();
    client.instances().forceDelete(name);
    double took = millisSince(start);
    check(
        result.exitCode() == 0 && result.stdoutText().equals("hi\n"),
        "our exec returned " + result);
    phases("ours", name, start, launched, executed);
    return took;
  }

  private double lifecycleCli(String name) throws IOException, InterruptedException {
    long start = System.nanoTime();
    cli("launch", "busybox", name, "-q");
    long launched = System.nanoTime();
    String out = cli("exec", name, "--", "echo", "hi");
    long executed = System.nanoTime();
    cli("delete", "-f", name);
    double took = millisSince(start);
    check(out.equals("hi\n"), "CLI exec printed " + out);
    phases("cli ", name, start, launched, executed);
    return took;
  }

  private static void phases(String who, String name, long start, long launched, long executed) {
    System.out.printf(
        "  %s %-10s launch %6.0f ms, exec %5.0f ms, delete %6.0f ms%n",
        who, name, (launched - start) / 1e6, (executed - launched) / 1e6, millisSince(executed));
  }

  private String cli(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add("incus");
    command.add("--project"); // before the arguments: after `--` it would belong to the command
    command.add(project);
    command.addAll(Arrays.asList(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("INCUS_DIR", socket.getParent().toString());
    // Not a pipe: `incus launch` reads instance config from stdin when it is not a terminal.
    builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    Process process = builder.start();
    byte[] out = process.getInputStream().readAllBytes();
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    int code = process.waitFor();
    check(code == 0, "incus " + String.join(" ", args) + " exited " + code + ": " + err);
    return new String(out, StandardCharsets.UTF_8);
  }

  private static void report(String what, List<Double> ours, List<Double> cli) {
    double oursMedian = median(ours);
    double cliMedian = median(cli);
    System.out.printf(
        "%s%n  ours: median %.1f ms (min %.1f, max %.1f)%n  cli:  median %.1f ms (min %.1f, max %.1f)%n"
            + "  ratio cli/ours (median): %.2f  %s%n",
        what,
        oursMedian,
        min(ours),
        max(ours),
        cliMedian,
        min(cli),
        max(cli),
        cliMedian / oursMedian,
        cliMedian >= oursMedian ? "(ours no slower: target met)" : "(ours SLOWER: target missed)");
  }

  private static double millisSince(long start) {
    return (System.nanoTime() - start) / 1e6;
  }

  private static double median(List<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  private static double min(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).min().orElse(0);
  }

  private static double max(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).max().orElse(0);
  }

  private static double sum(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).sum();
  }

  private static void check(boolean ok, String message) {
    if (!ok) {
      throw new IllegalStateException(message);
    }
  }
}
