package dev.agentcompute.codemode.execution;

import dev.agentcompute.codemode.protocol.Frame;
import dev.agentcompute.codemode.protocol.FrameIO;
import dev.agentcompute.codemode.protocol.Frames;
import java.io.BufferedInputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A worker that answers the probe correctly and then breaks the protocol in the way its argument
 * names (before or after its ready frame), so the host's side of
 * docs/reference/codemode.md#worker-protocol can be tested end to end (HostProtocolTest).
 */
final class MisbehavingWorker {
  private MisbehavingWorker() {}

  public static void main(String[] args) throws Exception {
    InputStream in = new BufferedInputStream(System.in);
    OutputStream out = new FileOutputStream(FileDescriptor.out);
    if (args[0].equals("never-ready")) {
      Thread.sleep(Long.MAX_VALUE);
    }
    Frame first;
    if (args[0].equals("garbage-before-ready")) {
      // Reads first (a host that started it for an execution has written its exec already), so
      // it can still pass the build probe.
      first = Frames.decode(FrameIO.read(in, FrameIO.UNBOUNDED), 64);
      if (!(first instanceof Frame.Probe)) {
        out.write("this is not a frame".getBytes(StandardCharsets.US_ASCII));
        out.close();
        System.exit(0);
      }
      FrameIO.write(out, Frames.encode(new Frame.Ready(Frame.VERSION)));
    } else {
      FrameIO.write(out, Frames.encode(new Frame.Ready(Frame.VERSION)));
      first = Frames.decode(FrameIO.read(in, FrameIO.UNBOUNDED), 64);
    }
    if (first instanceof Frame.Probe) {
      FrameIO.write(out, Frames.encode(new Frame.ProbeAck(Frame.VERSION)));
      return;
    }
    switch (args[0]) {
      case "garbage" -> out.write("this is not a frame".getBytes(StandardCharsets.US_ASCII));
      case "data-after-final" -> {
        // One write: the byte after the frame arrives with it.
        java.io.ByteArrayOutputStream both = new java.io.ByteArrayOutputStream();
        FrameIO.write(both, Frames.encode(new Frame.Final(1L)));
        both.write(0);
        out.write(both.toByteArray());
      }
      case "call-flood" -> {
        for (int i = 0; i < 1000; i++) {
          FrameIO.write(out, Frames.encode(new Frame.NativeCall("test.entry.ping", Map.of())));
          if (FrameIO.read(in, FrameIO.UNBOUNDED) == null) {
            break;
          }
        }
      }
      case "unknown-capability" -> {
        FrameIO.write(out, Frames.encode(new Frame.NativeCall("no.such.entry", Map.of())));
        FrameIO.read(in, FrameIO.UNBOUNDED);
      }
      case "wrong-frame" -> FrameIO.write(out, Frames.encode(new Frame.ProbeAck(Frame.VERSION)));
      case "lingers" -> {
        // Its result, then it neither closes stdout nor exits, as a jail's processes that still
        // hold the pipe while the worker's JVM tears down.
        FrameIO.write(out, Frames.encode(new Frame.Final(1L)));
        Thread.sleep(60_000);
      }
      case "silent-exit" -> System.exit(1);
      case "out-of-memory-exit" -> System.exit(WorkerCommand.OUT_OF_MEMORY_EXIT);
      default -> throw new IllegalArgumentException(args[0]);
    }
    out.flush();
    out.close();
    System.exit(0);
  }
}
