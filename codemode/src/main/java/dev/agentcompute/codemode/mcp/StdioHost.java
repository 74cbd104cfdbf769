package dev.agentcompute.codemode.mcp;

import dev.agentcompute.codemode.Resources;
import dev.agentcompute.codemode.Server;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;

/**
 * The blocking stdio host behind {@link CodeModeMcp#runStdio}: serves until standard input ends,
 * then closes the MCP server and the CodeMode server (its idle and pre-started workers), so a
 * process whose client went away exits instead of lingering with its workers.
 */
final class StdioHost {

  private StdioHost() {}

  static void run(Server service, Resources resources, InvocationResolver resolver, ServerInfo info)
      throws InterruptedException {
    CountDownLatch ended = new CountDownLatch(1);
    InputStream in = new EndSignal(System.in, ended);
    // stdout carries the protocol; anything else that prints to System.out (a handler, a library)
    // would corrupt it, so System.out now goes to stderr and only the transport has the real one.
    OutputStream protocol = System.out;
    System.setOut(new PrintStream(System.err, true));
    McpJsonMapper json = McpJsonDefaults.getMapper();
    McpServerTransportProvider transport =
        resources == null
            ? new StdioServerTransportProvider(json, in, protocol)
            : new RoutingStdioTransportProvider(
                json, in, protocol, CodeModeMcp.resources(resources, resolver));
    McpSyncServer mcp = CodeModeMcp.serve(transport, service, resolver, resources != null, info);
    try {
      ended.await();
    } finally {
      try {
        mcp.close();
      } finally {
        service.close();
      }
    }
  }

  /** Counts the latch down when the stream ends or fails: the client is gone either way. */
  private static final class EndSignal extends FilterInputStream {
    private final CountDownLatch ended;

    EndSignal(InputStream in, CountDownLatch ended) {
      super(in);
      this.ended = ended;
    }

    @Override
    public int read() throws IOException {
      return check(guard(() -> super.read()));
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return check(guard(() -> super.read(b, off, len)));
    }

    private int check(int n) {
      if (n < 0) {
        ended.countDown();
      }
      return n;
    }

    private int guard(IoRead read) throws IOException {
      try {
        return read.get();
      } catch (IOException e) {
        ended.countDown();
        throw e;
      }
    }

    @FunctionalInterface
    private interface IoRead {
      int get() throws IOException;
    }
  }
}
