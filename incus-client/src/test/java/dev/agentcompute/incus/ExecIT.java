package dev.agentcompute.incus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Exec over the Unix socket websockets against one running busybox container: commands run to
 * completion ({@code exec}) and commands kept attached ({@code openExec}).
 */
class ExecIT {

  private static IncusClient client;
  private static String project;
  private static IncusClient scoped;
  private static final String INSTANCE = "exec";

  @BeforeAll
  static void startContainer() {
    client = IncusTestDaemon.client();
    project = IncusTestDaemon.createSharingProject(client);
    scoped = client.inProject(project);
    scoped
        .instances()
        .create(
            InstanceSpec.container(INSTANCE, InstanceSpec.Source.imageAlias("busybox"))
                .startingImmediately());
  }

  @AfterAll
  static void deleteEverything() {
    if (client != null) {
      try {
        IncusTestDaemon.deleteProject(client, project);
      } finally {
        client.close();
      }
    }
  }

  @Test
  void exitCodesAndOutputsPropagate() {
    ExecResult ok =
        scoped.instances().exec(INSTANCE, ExecRequest.of(Duration.ofSeconds(20), "echo", "hello"));
    assertThat(ok.exitCode()).isZero();
    assertThat(ok.stdoutText()).isEqualTo("hello\n");
    assertThat(ok.timedOut()).isFalse();

    ExecResult failing =
        scoped
            .instances()
            .exec(
                INSTANCE,
                ExecRequest.of(Duration.ofSeconds(20), "sh", "-c", "echo oops >&2; exit 7"));
    assertThat(failing.exitCode()).isEqualTo(7);
    assertThat(failing.stderrText()).isEqualTo("oops\n");
    assertThat(failing.stdout()).isEmpty();
  }

  @Test
  void environmentCwdAndUserApply() {
    ExecResult result =
        scoped
            .instances()
            .exec(
                INSTANCE,
                ExecRequest.of(Duration.ofSeconds(20), "sh", "-c", "echo $GREETING; pwd; id -u")
                    .withEnvironment(java.util.Map.of("GREETING", "hi there"))
                    .withCwd("/tmp")
                    .withUser(1234));
    assertThat(result.exitCode()).isZero();
    assertThat(result.stdoutText()).isEqualTo("hi there\n/tmp\n1234\n");
  }

  @Test
  void stdinArrivesAndIsClosed() {
    byte[] input = "line one\nline two\n".getBytes(StandardCharsets.UTF_8);
    ExecResult result =
        scoped
            .instances()
            .exec(
                INSTANCE,
                ExecRequest.of(Duration.ofSeconds(20), "sh", "-c", "wc -l; cat >/dev/null")
                    .withStdin(input));
    assertThat(result.exitCode()).isZero();
    assertThat(result.stdoutText().strip()).isEqualTo("2");

    ExecResult echoed =
        scoped
            .instances()
            .exec(INSTANCE, ExecRequest.of(Duration.ofSeconds(20), "cat").withStdin(input));
    assertThat(echoed.stdout()).isEqualTo(input);
  }

  @Test
  void stdinIsNeverLostToAnEarlyClose() {
    // Closing stdin used to overtake the queued data now and then (1 run in 400 on a loaded
    // machine); the end of input is now the empty-message barrier Incus's own client sends.
    byte[] input = "a\nb\nc\n".getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < Integer.getInteger("stdin.runs", 40); i++) {
      ExecResult result =
          scoped
              .instances()
              .exec(INSTANCE, ExecRequest.of(Duration.ofSeconds(20), "wc", "-l").withStdin(input));
      assertThat(result.stdoutText().strip()).as("run %d", i).isEqualTo("3");
    }
  }

  /**
   * Quick commands run side by side lost their whole stdout about once in 200 (exit code 0, no
   * error) while output sockets still answered incusd's pings. A probabilistic check on the real
   * incusd; ExecSocketTest forces the race deterministically.
   */
  @Test
  void quickExecsSideBySideKeepTheirOutput() throws Exception {
    int threads = 4;
    int runs = Integer.getInteger("parallel.runs", 25);
    List<String> bad = Collections.synchronizedList(new ArrayList<>());
    try (var pool = Executors.newFixedThreadPool(threads)) {
      var futures = new ArrayList<Future<?>>();
      for (int t = 0; t < threads; t++) {
        futures.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < runs; i++) {
                    try {
                      ExecResult r =
                          scoped
                              .instances()
                              .exec(
                                  INSTANCE,
                                  ExecRequest.of(Duration.ofSeconds(60), "sh", "-c", "echo ok"));
                      if (r.exitCode() != 0
                          || !r.stdoutText().equals("ok\n")
                          || r.stderr().length > 0) {
                        bad.add(
                            "exit "
                                + r.exitCode()
                                + " stdout ["
                                + r.stdoutText()
                                + "] stderr ["
                                + r.stderrText()
                                + "]");
                      }
                    } catch (IncusException e) {
                      bad.add(e.toString());
                    }
                  }
                }));
      }
      for (var f : futures) {
        f.get();
      }
    }
    assertThat(bad).as("execs that did not answer exactly ok").isEmpty();
  }

  @Test
  void tenMebibytesOfOutputKeepExactlyTheCaptureLimit() {
    ExecResult result =
        scoped
            .instances()
            .exec(
                INSTANCE,
                ExecRequest.of(
                    Duration.ofSeconds(60),
                    "sh",
                    "-c",
                    "dd if=/dev/zero bs=1048576 count=10 2>/dev/null; echo done >&2"));
    assertThat(result.exitCode()).isZero();
    assertThat(result.stdout())
        .hasSize(
            ExecResult.MAX_CAPTURE
                + BoundedCapture.marker(10L * 1024 * 1024 - ExecResult.MAX_CAPTURE).length);
    assertThat(result.stdoutTruncated()).isTrue();
    assertThat(result.stderrText()).isEqualTo("done\n");
    assertThat(result.stderrTruncated()).isFalse();
  }

  @Test
  void aSleepingCommandIsKilledAtItsDeadline() {
    String marker = "sleep 4321";
    long start = System.nanoTime();
    ExecResult result =
        scoped
            .instances()
            .exec(
                INSTANCE,
                ExecRequest.of(Duration.ofSeconds(2), "sh", "-c", "echo started; exec " + marker));
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertThat(result.timedOut()).isTrue();
    assertThat(result.stdoutText()).isEqualTo("started\n");
    assertThat(result.exitCode()).isEqualTo(137);
    assertThat(took).isLessThan(Duration.ofSeconds(2 + 5 + 2));
    assertThat(processList()).doesNotContain(marker);
  }

  @Test
  void cancellingTheCallerKillsTheCommandAndLeavesNoWebsocketOpen() throws Exception {
    String marker = "sleep 5432";
    AtomicReference<Thread> worker = new AtomicReference<>();
    CompletableFuture<Throwable> outcome = new CompletableFuture<>();
    Thread thread =
        Thread.ofPlatform()
            .name("exec-caller")
            .start(
                () -> {
                  worker.set(Thread.currentThread());
                  try {
                    scoped
                        .instances()
                        .exec(
                            INSTANCE,
                            ExecRequest.of(Duration.ofSeconds(60), "sh", "-c", "exec " + marker));
                    outcome.complete(null);
                  } catch (Throwable t) {
                    outcome.complete(t);
                  }
                });
    waitUntil(() -> processList().contains(marker), Duration.ofSeconds(10));
    thread.interrupt();
    Throwable thrown = outcome.get(10, TimeUnit.SECONDS);
    assertThat(thrown).isInstanceOf(IncusException.Cancelled.class);
    waitUntil(() -> webSocketThreads() == 0, Duration.ofSeconds(6));
    assertThat(webSocketThreads()).isZero();
    waitUntil(() -> !processList().contains(marker), Duration.ofSeconds(5));
    assertThat(processList()).doesNotContain(marker);
  }

  @Test
  void manySmallExecsLeaveNoThreadsBehind() {
    for (int i = 0; i < 20; i++) {
      ExecResult result =
          scoped.instances().exec(INSTANCE, ExecRequest.of(Duration.ofSeconds(20), "true"));
      assertThat(result.exitCode()).isZero();
    }
    waitUntil(() -> webSocketThreads() == 0, Duration.ofSeconds(5));
    assertThat(webSocketThreads()).isZero();
  }

  @Test
  void execInAMissingInstanceIsNotFound() {
    assertThatThrownBy(
            () -> scoped.instances().exec("absent", ExecRequest.of(Duration.ofSeconds(5), "true")))
        .isInstanceOf(IncusException.NotFound.class);
  }

  // ---- attached streams (openExec) ------------------------------------------------------------

  private static ExecStream attach(Duration deadline, String... command) {
    return scoped
        .instances()
        .openExec(
            INSTANCE, new ExecRequest(List.of(command), Map.of(), null, null, null, deadline));
  }

  private static BufferedReader lines(InputStream in) {
    return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
  }

  private static void writeLine(OutputStream out, String line) throws IOException {
    out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  @Test
  void anAttachedCommandAnswersEachLineBeforeTheNextIsWritten() throws Exception {
    try (ExecStream cat = attach(Duration.ofSeconds(60), "cat")) {
      BufferedReader out = lines(cat.stdout());
      for (int i = 1; i <= 3; i++) {
        writeLine(cat.stdin(), "line " + i);
        assertThat(out.readLine()).isEqualTo("line " + i);
      }
      cat.stdin().close();
      assertThat(out.readLine()).as("cat's stdout ends with its input").isNull();
      assertThat(cat.awaitExit(Duration.ofSeconds(10))).isZero();
    }
  }

  @Test
  void anAttachedCommandsExitCodeAndStderrComeBack() throws Exception {
    try (ExecStream reader =
        attach(Duration.ofSeconds(60), "sh", "-c", "read x; echo \"got $x\" >&2; exit 5")) {
      writeLine(reader.stdin(), "hello");
      assertThat(reader.stdout().read()).isEqualTo(-1);
      assertThat(reader.awaitExit(Duration.ofSeconds(10))).isEqualTo(5);
      waitUntil(() -> reader.stderr().length > 0, Duration.ofSeconds(5));
      assertThat(new String(reader.stderr(), StandardCharsets.UTF_8)).isEqualTo("got hello\n");
    }
  }

  @Test
  void moreOutputThanTheBufferArrivesWholeAtTheReadersPace() throws Exception {
    try (ExecStream dd =
        attach(
            Duration.ofSeconds(60),
            "sh",
            "-c",
            "dd if=/dev/zero bs=1048576 count=3 2>/dev/null; echo end")) {
      Thread.sleep(1000); // the command is held back by the full buffer meanwhile
      long total = 0;
      byte[] buffer = new byte[8192];
      for (int n = dd.stdout().read(buffer); n >= 0; n = dd.stdout().read(buffer)) {
        total += n;
      }
      assertThat(total).isEqualTo(3 * 1048576L + "end\n".length());
      assertThat(dd.awaitExit(Duration.ofSeconds(10))).isZero();
    }
  }

  @Test
  void closingAnAttachedStreamKillsTheCommandAndLeavesNoWebsocketOpen() {
    String marker = "sleep 6543";
    ExecStream sleeper = attach(Duration.ofSeconds(60), "sh", "-c", "exec " + marker);
    waitUntil(() -> processList().contains(marker), Duration.ofSeconds(10));
    assertThat(processList()).contains(marker);
    sleeper.close();
    assertThat(sleeper.awaitExit(Duration.ofSeconds(10))).isEqualTo(137);
    assertThatThrownBy(() -> sleeper.stdin().write(1)).isInstanceOf(IOException.class);
    waitUntil(() -> !processList().contains(marker), Duration.ofSeconds(5));
    assertThat(processList()).doesNotContain(marker);
    waitUntil(() -> webSocketThreads() == 0, Duration.ofSeconds(6));
    assertThat(webSocketThreads()).isZero();
  }

  @Test
  void anAttachedStreamIsClosedAtItsDeadline() throws Exception {
    String marker = "sleep 7654";
    long start = System.nanoTime();
    try (ExecStream sleeper =
        attach(Duration.ofSeconds(2), "sh", "-c", "echo started; exec " + marker)) {
      BufferedReader out = lines(sleeper.stdout());
      assertThat(out.readLine()).isEqualTo("started");
      assertThatThrownBy(out::readLine).isInstanceOf(IOException.class);
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .isLessThan(Duration.ofSeconds(2 + 5 + 2));
      assertThat(sleeper.awaitExit(Duration.ofSeconds(10))).isEqualTo(137);
    }
    assertThat(processList()).doesNotContain(marker);
  }

  @Test
  void attachingInAMissingInstanceIsNotFound() {
    assertThatThrownBy(
            () ->
                scoped.instances().openExec("absent", ExecRequest.of(Duration.ofSeconds(5), "cat")))
        .isInstanceOf(IncusException.NotFound.class);
  }

  private static String processList() {
    return scoped
        .instances()
        .exec(INSTANCE, ExecRequest.of(Duration.ofSeconds(20), "ps", "-o", "args"))
        .stdoutText();
  }

  static long webSocketThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith("WebSocket"))
        .count();
  }

  static void waitUntil(java.util.function.BooleanSupplier condition, Duration limit) {
    long end = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean() && System.nanoTime() < end) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
