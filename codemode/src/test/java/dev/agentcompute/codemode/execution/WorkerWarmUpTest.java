package dev.agentcompute.codemode.execution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The warm-up covers the real request path: once a worker waits for its first frame, its first
 * execution (with a native call) loads no class of ours. A class the warm-up skipped is loaded from
 * its jar at the first request (the AOT cache holds only what the warm-up loaded): opening the jar
 * cost that request ~10 ms, the slowest call of every new worker (MaxExecutionsPerWorker's tail).
 */
@Timeout(60)
class WorkerWarmUpTest {

  @Test
  void aWarmedWorkersFirstExecutionLoadsNoClassOfOurs(@TempDir Path dir) throws Exception {
    assertThat(firstExecutionLoads(dir, "def main():\n    return test.ping()\n"))
        .as("classes of ours loaded by the first execution")
        .isEmpty();
  }

  /**
   * The same for a program of the kind agents write (a comprehension over range, str(), string
   * concatenation and formatting, a loop with a condition, dict methods): before the warm-up ran
   * such a program, its first execution loaded the comprehension's and range's classes, among
   * others, from the jar.
   */
  @Test
  void aTypicalProgramsFirstExecutionLoadsNoClassOfOurs(@TempDir Path dir) throws Exception {
    String program =
        "def main():\n"
            + "    rows = [test.ping() for i in range(3)]\n"
            + "    names = {}\n"
            + "    for i, row in enumerate(rows):\n"
            + "        if row.get('ok'):\n"
            + "            names['n%d' % i] = 'k' + str(i)\n"
            + "    return sorted(names.values()) + [len(rows), ', '.join(names.keys())]\n";
    assertThat(firstExecutionLoads(dir, program))
        .as("classes of ours loaded by the first execution")
        .isEmpty();
  }

  /** The classes of ours a warmed worker loads to run {@code source} (ping calls answered). */
  private static List<String> firstExecutionLoads(Path dir, String source) throws Exception {
    Path log = dir.resolve("classes.txt");
    Process p = ClassLoggingWorker.start(log);
    try {
      awaitReadingStdin(p);
      int warmedUp = Files.readAllLines(log).size();
      String manifest =
          "[{\"id\":\"test.ping\",\"name\":\"test.ping\",\"input\":{\"root\":0,\"nodes\":"
              + "[{\"kind\":\"struct\",\"fields\":[]}]}}]";
      byte[] exec =
          ("{\"type\":\"exec\",\"version\":1,\"source\":"
                  + quoted(source)
                  + ","
                  + "\"limits\":{\"max_source_bytes\":65536,\"max_execution_steps\":1000000,"
                  + "\"max_native_calls\":100,\"max_value_depth\":32,\"max_value_bytes\":1048576},"
                  + "\"manifest\":"
                  + manifest
                  + "}")
              .getBytes(StandardCharsets.UTF_8);
      OutputStream out = p.getOutputStream();
      InputStream in = p.getInputStream();
      assertThat(read(in)).as("the ready frame, written before the worker read").contains("ready");
      write(out, exec);
      String frame = read(in);
      assertThat(frame).contains("\"type\":\"native_call\"");
      while (frame.contains("\"type\":\"native_call\"")) {
        write(out, "{\"type\":\"native_result\",\"result\":{\"ok\":true}}".getBytes());
        frame = read(in);
      }
      assertThat(frame).contains("\"type\":\"final\"");
      out.close();
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      List<String> loaded = Files.readAllLines(log);
      return loaded.subList(warmedUp, loaded.size()).stream()
          .filter(l -> l.contains(" dev.agentcompute."))
          .toList();
    } finally {
      p.destroyForcibly();
    }
  }

  private static String quoted(String s) {
    StringBuilder b = new StringBuilder();
    dev.agentcompute.codemode.protocol.GoJson.writeString(b, s);
    return b.toString();
  }

  /**
   * Waits until a thread of the worker blocks in read(2) on fd 0: the warm-up is over and the
   * worker waits for its first frame (/proc/PID/task/TID/syscall: number, then the arguments).
   */
  private static void awaitReadingStdin(Process p) throws Exception {
    String read = System.getProperty("os.arch").equals("aarch64") ? "63 0x0 " : "0 0x0 ";
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      try (Stream<Path> tasks = Files.list(Path.of("/proc/" + p.pid() + "/task"))) {
        for (Path t : (Iterable<Path>) tasks::iterator) {
          try {
            if (Files.readString(t.resolve("syscall")).startsWith(read)) {
              return;
            }
          } catch (IOException gone) {
            // a thread that ended meanwhile
          }
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("the worker never waited for its first frame");
  }

  private static void write(OutputStream out, byte[] payload) throws IOException {
    int n = payload.length;
    out.write(new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n});
    out.write(payload);
    out.flush();
  }

  private static String read(InputStream in) throws IOException {
    byte[] len = in.readNBytes(4);
    int n =
        ((len[0] & 0xff) << 24)
            | ((len[1] & 0xff) << 16)
            | ((len[2] & 0xff) << 8)
            | (len[3] & 0xff);
    return new String(in.readNBytes(n), StandardCharsets.UTF_8);
  }
}
