package dev.agentcompute.codemode.worker;

import dev.agentcompute.codemode.binding.GoStrings;
import dev.agentcompute.codemode.binding.TypeNode;
import dev.agentcompute.codemode.protocol.Frame;
import dev.agentcompute.codemode.protocol.FrameIO;
import dev.agentcompute.codemode.protocol.Frames;
import dev.agentcompute.codemode.protocol.Manifest;
import dev.agentcompute.codemode.protocol.ProtocolException;
import dev.agentcompute.codemode.protocol.Values;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * The worker process: announces that it is ready, then serves one probe, or one execution (several
 * for one subject when the host asks to keep it alive), over length-prefixed frames on
 * stdin/stdout, then exits. It holds no credentials, handlers or subject; elapsed time is enforced
 * by the host killing it.
 */
public final class WorkerMain {

  private final InputStream in;
  private final OutputStream out;
  private final Engine engine;

  private WorkerMain(InputStream in, OutputStream out, Engine engine) {
    this.in = in;
    this.out = out;
    this.engine = engine;
  }

  /**
   * Entry point when the host launches the worker class directly; refuses to run without the
   * marker.
   */
  public static void main(String[] args) {
    if (!dev.agentcompute.codemode.CodeMode.isWorker()) {
      System.err.println(
          "WorkerMain serves the private CodeMode worker protocol and only runs with "
              + dev.agentcompute.codemode.CodeMode.WORKER_MARKER
              + "=1, as started by a CodeMode host");
      System.exit(2);
    }
    serveAndExit();
  }

  /** Serves the protocol and terminates the JVM (0: served; 1: protocol or internal failure). */
  public static void serveAndExit() {
    OutputStream stdout =
        new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16);
    // Nothing but frames may reach stdout: stray prints go to stderr, which the host discards.
    System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));
    InputStream stdin = new BufferedInputStream(new FileInputStream(FileDescriptor.in), 1 << 16);
    int status;
    try {
      Engine engine = new StarlarkEngine();
      warmUp(engine);
      // The host bounds how many workers start at once and counts this one as starting until it
      // reads this frame (docs/reference/codemode.md#worker-starts).
      FrameIO.write(stdout, Frames.encode(new Frame.Ready(Frame.VERSION)));
      status = new WorkerMain(stdin, stdout, engine).serve();
    } catch (Throwable t) {
      status = 1;
    }
    try {
      // End of output tells the host the exchange is over before JVM teardown starts.
      stdout.close();
    } catch (IOException | RuntimeException e) {
      status = status == 0 ? 1 : status;
    }
    Runtime.getRuntime().halt(status);
  }

  /**
   * What the warm-up runs: the constructs agents' programs use most (loops, conditions,
   * comprehensions, string formatting and methods, dict and list methods, the common builtins,
   * json), around three native calls. Each construct the warm-up skips is loaded from its jar at
   * the first real request that uses it (the AOT cache holds only what the warm-up loaded): a
   * comprehension over {@code range} with {@code str()} cost a fresh worker's first such execution
   * ~15 ms.
   */
  static final String WARM_UP_SOURCE =
      """
      def helper(x, *args, **kwargs):
          return {'x': x * 1.5, 'ok': True, 'none': None, 'n': len(args) + len(kwargs)}

      def main():
          r = warm.call(key='k', n=1, tags=['a', 'b'])
          rows = [warm.call(key='k' + str(i), tags=[]) for i in range(2)]
          out = {}
          for i, row in enumerate(rows):
              if i % 2 == 0 and row != None:
                  out['r%d' % i] = row
              elif not row:
                  continue
              else:
                  out.update({'x': [i]})
          names = sorted([k for k in out.keys() if k.startswith('r')], reverse=True)
          names += sorted([str(v) for v in out.values()]) + sorted([2, 1])
          text = ', '.join(['%s=%s' % (k, v) for k, v in out.items()]).upper().split(',')
          s = 'abc'.replace('b', 'B').strip() + '{}'.format(1) + str(3 // 2) + str(-1 % 3)
          t = (1, 2) + tuple([3])
          d = dict(a=1, b=[2])
          x = d.get('a', 0) + max([1, 2]) + min(3, 4) + abs(-1) + int('5') + len(s)
          ok = any([False, True]) and all([True]) and 'a' in d and 1 not in [2]
          return [r, helper(2, 3, k=4), sum([1, 2]), json.encode([1, {'a': None}]),
                  json.decode('{"a": [1, 2.5]}'), names, text, s, t, d, x, ok, type(x), repr(s),
                  bool(0), float(1), list(reversed([1, 2])), [y for y in range(3) if y > 0],
                  {k: v for k, v in d.items()}, s.lower().endswith('c'), hash('a') != 0]
      """;

  /** Native calls {@link #WARM_UP_SOURCE} makes. */
  static final int WARM_UP_CALLS = 3;

  /**
   * Exercises the whole request path before the first real request: a worker over in-memory pipes
   * serves the frames a host would send (an exec of {@link #WARM_UP_SOURCE}, the results of its
   * native calls), so frame reading and decoding, binding, the interpreter, the native-call bridge,
   * result encoding and frame writing are loaded, linked and partly compiled. Going through {@link
   * #serve} itself matters: a class of the real path that the warm-up skipped is loaded from its
   * jar at the first real request (the AOT cache holds only what the warm-up loaded), and opening
   * the jar for it cost that request ~10 ms. Best effort.
   *
   * @return whether both rounds ended in a result (not an error): a warm-up program that fails
   *     part-way warms only what it reached
   */
  static boolean warmUp(Engine engine) {
    return warmUp(engine, WARM_UP_SOURCE);
  }

  static boolean warmUp(Engine engine, String source) {
    TypeNode.Struct input =
        new TypeNode.Struct(
            null,
            null,
            List.of(
                new TypeNode.Field("key", new TypeNode.Str(), false, null),
                new TypeNode.Field(
                    "n",
                    new TypeNode.Opt(
                        new TypeNode.Int(Long.MIN_VALUE, Long.MAX_VALUE, TypeNode.IntRepr.NONE),
                        TypeNode.OptRepr.NONE),
                    false,
                    null),
                new TypeNode.Field(
                    "tags", new TypeNode.ListOf(new TypeNode.Str(), false), false, null)));
    Frame.ExecLimits limits = new Frame.ExecLimits(65_536, 100_000, 10, 32, 1 << 20);
    boolean succeeded = true;
    // Two rounds: the program once, then a one-call program kept alive (the reused worker's path).
    // Each class is loaded and linked by its first use; running the program twice cost ~10 ms more
    // CPU per worker start, and its compilations went on after the ready frame.
    for (int i = 0; i < 2; i++) {
      String program = i == 0 ? source : "def main():\n    return warm.call(key='k', tags=[])\n";
      int calls = i == 0 ? WARM_UP_CALLS : 1;
      try {
        java.io.ByteArrayOutputStream host = new java.io.ByteArrayOutputStream();
        FrameIO.write(
            host,
            Frames.encode(
                new Frame.Exec(
                    Frame.VERSION,
                    program,
                    limits,
                    List.of(new Manifest.Item("warm.call", "warm.call", input)),
                    false,
                    i == 1)));
        for (int c = 0; c < calls; c++) {
          FrameIO.write(
              host, Frames.encode(new Frame.NativeResult(Map.of("key", "k", "count", 1L))));
        }
        java.io.ByteArrayOutputStream replies = new java.io.ByteArrayOutputStream();
        new WorkerMain(new java.io.ByteArrayInputStream(host.toByteArray()), replies, engine)
            .serve();
        // Read back as the host would: the native calls, then the final frame.
        InputStream back = new java.io.ByteArrayInputStream(replies.toByteArray());
        Frame last = null;
        for (byte[] f = FrameIO.read(back, FrameIO.UNBOUNDED);
            f != null;
            f = FrameIO.read(back, FrameIO.UNBOUNDED)) {
          last = Frames.decode(f, 64);
        }
        succeeded &= last instanceof Frame.Final;
      } catch (Exception | StackOverflowError e) {
        return false;
      }
    }
    return succeeded;
  }

  int serve() throws IOException {
    try {
      byte[] first = FrameIO.read(in, FrameIO.UNBOUNDED);
      if (first == null) {
        return 0;
      }
      Frame f = Frames.decode(first, Integer.MAX_VALUE - 16);
      if (f instanceof Frame.Probe p) {
        if (p.version() != Frame.VERSION) {
          return 1;
        }
        FrameIO.write(out, Frames.encode(new Frame.ProbeAck(Frame.VERSION)));
        return 0;
      }
      while (f instanceof Frame.Exec exec) {
        if (!runOne(exec) || !exec.keepAlive()) {
          return 0;
        }
        byte[] next = FrameIO.read(in, FrameIO.UNBOUNDED);
        if (next == null) {
          return 0;
        }
        f = Frames.decode(next, Integer.MAX_VALUE - 16);
      }
      return 1;
    } catch (ProtocolException | Values.InvalidValue e) {
      return 1;
    }
  }

  /** Runs one exec; returns false when the connection became terminal (native_abort). */
  private boolean runOne(Frame.Exec exec)
      throws IOException, ProtocolException, Values.InvalidValue {
    Frame.ExecLimits l = exec.limits();
    if (exec.version() != Frame.VERSION
        || l.maxSourceBytes() <= 0
        || l.maxExecutionSteps() <= 0
        || l.maxNativeCalls() <= 0
        || l.maxValueDepth() <= 0
        || l.maxValueBytes() <= 0) {
      throw new ProtocolException("invalid exec frame");
    }
    if (GoStrings.utf8Length(exec.source()) > l.maxSourceBytes()) {
      FrameIO.write(
          out,
          Frames.encode(
              new Frame.FinalError(
                  "resource_limit",
                  null,
                  exec.explain()
                      ? Explainer.sourceLimit(l, GoStrings.utf8Length(exec.source()))
                      : null)));
      return true;
    }
    long resultCap = "{\"type\":\"native_result\",\"result\":".length() + l.maxValueBytes() + 1;
    Bridge bridge = new Bridge(l, resultCap);
    Frame terminal;
    try {
      Object value = engine.run(exec.source(), l, exec.manifest(), bridge);
      String encoded = Values.encode(value);
      if (Values.depth(value) > l.maxValueDepth() || Values.size(encoded) > l.maxValueBytes()) {
        terminal =
            new Frame.FinalError(
                "resource_limit",
                null,
                exec.explain()
                    ? Explainer.resultLimit(l.maxValueDepth(), l.maxValueBytes())
                    : null);
      } else {
        terminal = new Frame.Final(value);
      }
    } catch (Engine.Aborted a) {
      return false;
    } catch (Engine.Failure e) {
      terminal =
          new Frame.FinalError(e.code(), e.detail(), exec.explain() ? e.explanation() : null);
    } catch (Values.InvalidValue e) {
      terminal =
          new Frame.FinalError(
              "invalid_program", null, exec.explain() ? Explainer.badResult("value") : null);
    } catch (StackOverflowError e) {
      terminal =
          new Frame.FinalError(
              "resource_limit", null, exec.explain() ? Explainer.stackOverflow() : null);
    }
    if (bridge.aborted) {
      return false;
    }
    FrameIO.write(out, Frames.encode(terminal));
    return true;
  }

  /** Forwards native calls: one outstanding at a time, results validated before use. */
  private final class Bridge implements Engine.Bridge {
    private final Frame.ExecLimits limits;
    private final long resultCap;
    private long calls;
    boolean aborted;

    Bridge(Frame.ExecLimits limits, long resultCap) {
      this.limits = limits;
      this.resultCap = resultCap;
    }

    @Override
    public Object call(String capabilityId, Map<String, Object> arguments)
        throws Engine.Aborted, IOException {
      if (aborted || ++calls > limits.maxNativeCalls()) {
        throw new IllegalStateException("native call in a terminal state");
      }
      try {
        FrameIO.write(out, Frames.encode(new Frame.NativeCall(capabilityId, arguments)));
        byte[] payload = FrameIO.read(in, resultCap);
        if (payload == null) {
          throw new IOException("host closed the connection");
        }
        Frame f = Frames.decode(payload, limits.maxValueDepth());
        if (f instanceof Frame.NativeAbort) {
          aborted = true;
          throw new Engine.Aborted();
        }
        if (f instanceof Frame.NativeResult r) {
          return Values.validate(r.result(), limits.maxValueDepth());
        }
        throw new IOException("unexpected frame from host");
      } catch (ProtocolException | Values.InvalidValue e) {
        throw new IOException("protocol violation: " + e.getMessage());
      }
    }
  }
}
