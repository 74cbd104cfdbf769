package dev.agentcompute.codemode.execution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.codemode.binding.TypeNode;
import dev.agentcompute.codemode.protocol.Frame;
import dev.agentcompute.codemode.protocol.FrameIO;
import dev.agentcompute.codemode.protocol.Frames;
import dev.agentcompute.codemode.protocol.JsonReader;
import dev.agentcompute.codemode.protocol.Manifest;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The child side of the worker protocol (docs/reference/codemode.md#framing, #frames,
 * #worker-side), driven frame by frame against a real worker process: legal sequences end in EOF
 * and exit 0, violations in exit 1 with no output.
 */
class WorkerProtocolTest {

  static final Frame.ExecLimits LIMITS = new Frame.ExecLimits(65_536, 1_000_000, 100, 32, 1 << 20);
  static final TypeNode.Struct LOOKUP =
      new TypeNode.Struct(
          null,
          null,
          List.of(
              new TypeNode.Field("key", new TypeNode.Str(), false, null),
              new TypeNode.Field(
                  "limit",
                  new TypeNode.Opt(
                      new TypeNode.Int(Long.MIN_VALUE, Long.MAX_VALUE, TypeNode.IntRepr.NONE),
                      TypeNode.OptRepr.NONE),
                  false,
                  null)));
  static final TypeNode.Struct EMPTY = new TypeNode.Struct(null, null, List.of());
  static final List<Manifest.Item> MANIFEST =
      List.of(
          new Manifest.Item("records.entry.lookup", "records.lookup", LOOKUP),
          new Manifest.Item("health.entry.status", "health.status", EMPTY));

  private Process process;
  private InputStream in;
  private OutputStream out;

  /** Starts a worker and reads its ready frame, as the host does before anything else. */
  private void start() throws Exception {
    process = WorkerCommand.start(WorkerCommand.build(64L << 20), false);
    in = process.getInputStream();
    out = process.getOutputStream();
    assertThat(receive()).as("the worker's first frame").isEqualTo(new Frame.Ready(1));
  }

  @AfterEach
  void kill() throws InterruptedException {
    if (process != null) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private void send(Frame f) throws Exception {
    FrameIO.write(out, Frames.encode(f));
  }

  private Frame receive() throws Exception {
    byte[] payload = FrameIO.read(in, FrameIO.UNBOUNDED);
    assertThat(payload).as("a frame before end of output").isNotNull();
    return Frames.decode(payload, 64);
  }

  /** Reads to the end of stdout: it must hold no further byte; returns the exit status. */
  private int endOfOutputAndExit() throws Exception {
    assertThat(in.read()).as("end of output").isEqualTo(-1);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return process.exitValue();
  }

  private Frame.Exec exec(String source) {
    return new Frame.Exec(Frame.VERSION, source, LIMITS, MANIFEST, false);
  }

  @Test
  void theWorkerSaysItIsReadyBeforeItReadsAnything() throws Exception {
    // Nothing is written to the worker: the ready frame comes on its own, once the start is over.
    process = WorkerCommand.start(WorkerCommand.build(64L << 20), false);
    in = process.getInputStream();
    out = process.getOutputStream();
    byte[] payload = FrameIO.read(in, Frames.PROBE_CAP);
    assertThat(new String(payload, StandardCharsets.UTF_8))
        .isEqualTo("{\"type\":\"ready\",\"version\":1}");
    out.close();
    assertThat(endOfOutputAndExit()).as("no request: nothing served").isZero();
  }

  @Test
  void probeIsAnsweredWithAck() throws Exception {
    start();
    send(new Frame.Probe(1));
    assertThat(receive()).isEqualTo(new Frame.ProbeAck(1));
    assertThat(endOfOutputAndExit()).isZero();
  }

  @Test
  void execEndsWithOneFinalFrame() throws Exception {
    start();
    send(exec("def main():\n    return {'b': [1, 2.0], 'a': None}\n"));
    Frame f = receive();
    Map<String, Object> expected = new java.util.HashMap<>(Map.of("b", List.of(1L, 2.0)));
    expected.put("a", null);
    assertThat(f)
        .isInstanceOfSatisfying(
            Frame.Final.class, fin -> assertThat(fin.result()).isEqualTo(expected));
    assertThat(endOfOutputAndExit()).isZero();
  }

  @Test
  void nativeCallsCarryIdAndCanonicalArgumentsOneAtATime() throws Exception {
    start();
    send(
        exec(
            "def main():\n    r = records.lookup(key='k', limit=None)\n    s = health.status()\n"
                + "    r['mutated'] = True\n    return [r, s]\n"));
    assertThat(receive())
        .isEqualTo(new Frame.NativeCall("records.entry.lookup", Map.of("key", "k")));
    send(new Frame.NativeResult(Map.of("key", "k", "count", 3L)));
    assertThat(receive()).isEqualTo(new Frame.NativeCall("health.entry.status", Map.of()));
    send(new Frame.NativeResult(Map.of("state", "ok")));
    assertThat(receive())
        .isInstanceOfSatisfying(
            Frame.Final.class,
            fin ->
                assertThat(fin.result())
                    .isEqualTo(
                        List.of(
                            Map.of("key", "k", "count", 3L, "mutated", true),
                            Map.of("state", "ok"))));
    assertThat(endOfOutputAndExit()).isZero();
  }

  @Test
  void nativeAbortUnwindsWithoutAFinalFrame() throws Exception {
    start();
    send(exec("def main():\n    records.lookup(key='k')\n    return 1\n"));
    assertThat(receive()).isInstanceOf(Frame.NativeCall.class);
    send(new Frame.NativeAbort("shown to the model"));
    assertThat(endOfOutputAndExit()).isZero();
  }

  @Test
  void workerOwnedFailuresAreFinalErrorsWithApprovedDetailOnly() throws Exception {
    start();
    send(exec("def main(:\n"));
    assertThat(receive())
        .isInstanceOfSatisfying(
            Frame.FinalError.class,
            e -> {
              assertThat(e.code()).isEqualTo("invalid_program");
              assertThat(e.detail()).startsWith("<codemode>:1:");
            });
    assertThat(endOfOutputAndExit()).isZero();

    start();
    send(exec("def main():\n    return records.lookup(keu='k')\n"));
    assertThat(receive())
        .isEqualTo(new Frame.FinalError("invalid_arguments", "unknown argument \"keu\""));
    assertThat(endOfOutputAndExit()).isZero();

    start();
    send(exec("def main():\n    fail('secret')\n"));
    assertThat(receive()).isEqualTo(new Frame.FinalError("invalid_program", null));
    assertThat(endOfOutputAndExit()).isZero();
  }

  @Test
  void theWorkerChecksTheSourceLimitAgain() throws Exception {
    start();
    send(
        new Frame.Exec(
            Frame.VERSION,
            "def main():\n    return 1\n",
            new Frame.ExecLimits(10, 1000, 1, 1, 64),
            List.of(),
            false));
    assertThat(receive()).isEqualTo(new Frame.FinalError("resource_limit", null));
    assertThat(endOfOutputAndExit()).isZero();
  }

  @Test
  void aFinalValueAboveTheByteLimitIsAResourceLimit() throws Exception {
    start();
    send(
        new Frame.Exec(
            Frame.VERSION,
            "def main():\n    return 'x' * 100\n",
            new Frame.ExecLimits(1000, 1000, 1, 4, 64),
            List.of(),
            false));
    assertThat(receive()).isEqualTo(new Frame.FinalError("resource_limit", null));
    assertThat(endOfOutputAndExit()).isZero();
  }

  @Test
  void violationsEndTheWorkerWithStatusOneAndNoOutput() throws Exception {
    List<String> firstFrames =
        List.of(
            "{\"type\":\"native_result\",\"result\":1}",
            "{\"type\":\"probe\",\"version\":2}",
            "{\"type\":\"exec\",\"version\":2,\"source\":\"\",\"limits\":{\"max_source_bytes\":1,\"max_execution_steps\":1,"
                + "\"max_native_calls\":1,\"max_value_depth\":1,\"max_value_bytes\":1},\"manifest\":[]}",
            "{\"type\":\"exec\",\"version\":1,\"source\":\"\",\"limits\":{\"max_source_bytes\":1,\"max_execution_steps\":0,"
                + "\"max_native_calls\":1,\"max_value_depth\":1,\"max_value_bytes\":1},\"manifest\":[]}",
            "{\"type\":\"exec\",\"version\":1,\"source\":\"\",\"limits\":{\"max_source_bytes\":1,\"max_execution_steps\":1,"
                + "\"max_native_calls\":1,\"max_value_depth\":1,\"max_value_bytes\":1}}",
            "{\"type\":\"probe\",\"version\":1} trailing",
            "{\"type\":\"probe\",\"version\":1,\"extra\":true}",
            "not json");
    for (String first : firstFrames) {
      start();
      FrameIO.write(out, first);
      assertThat(endOfOutputAndExit()).as(first).isEqualTo(1);
    }
    start();
    out.write(new byte[] {0, 0, 0, 0});
    out.flush();
    assertThat(endOfOutputAndExit()).as("zero-length frame").isEqualTo(1);
  }

  @Test
  void anIllegalAnswerToANativeCallEndsTheWorker() throws Exception {
    String program = "def main():\n    return records.lookup(key='k')\n";
    start();
    send(exec(program));
    assertThat(receive()).isInstanceOf(Frame.NativeCall.class);
    send(new Frame.Final(1L));
    assertThat(endOfOutputAndExit()).as("final sent by the host").isEqualTo(1);

    start();
    send(exec(program));
    assertThat(receive()).isInstanceOf(Frame.NativeCall.class);
    FrameIO.write(
        out, "{\"type\":\"native_result\",\"result\":" + "[".repeat(40) + "]".repeat(40) + "}");
    assertThat(endOfOutputAndExit()).as("result deeper than max_value_depth").isEqualTo(1);

    start();
    send(exec(program));
    assertThat(receive()).isInstanceOf(Frame.NativeCall.class);
    FrameIO.write(out, "{\"type\":\"native_result\"}");
    assertThat(endOfOutputAndExit()).as("result missing").isEqualTo(1);
  }

  @Test
  void execFrameCarriesNoSubjectAndOnlyTheWorkersLimits() throws Exception {
    String encoded = Frames.encode(exec("def main():\n    return 1\n"));
    Map<?, ?> json = (Map<?, ?>) JsonReader.parse(encoded, 64);
    assertThat(List.<Object>copyOf(json.keySet()))
        .containsExactlyInAnyOrder("type", "version", "source", "limits", "manifest");
    assertThat(List.<Object>copyOf(((Map<?, ?>) json.get("limits")).keySet()))
        .containsExactlyInAnyOrder(
            "max_source_bytes",
            "max_execution_steps",
            "max_native_calls",
            "max_value_depth",
            "max_value_bytes");
  }

  @Test
  void theWorkerEnvironmentHoldsOnlyTheMarkerAndNoExtraDescriptors() throws Exception {
    Process env = WorkerCommand.start(List.of("/usr/bin/env"), false);
    env.getOutputStream().close();
    String vars = new String(env.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(env.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(vars.lines()).containsExactly("CODEMODE_WORKER=1");
    Process fds = WorkerCommand.start(List.of("/bin/sh", "-c", "ls /proc/$$/fd"), false);
    fds.getOutputStream().close();
    String open = new String(fds.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(fds.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(open.lines()).containsExactlyInAnyOrder("0", "1", "2");
  }
}
