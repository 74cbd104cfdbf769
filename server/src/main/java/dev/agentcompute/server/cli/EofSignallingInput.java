package dev.agentcompute.server.cli;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Standard input that reports end-of-file: the stdio client closing it ends the server. */
public final class EofSignallingInput extends FilterInputStream {
  private final Runnable onEof;

  public EofSignallingInput(InputStream in, Runnable onEof) {
    super(in);
    this.onEof = onEof;
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b < 0) {
      onEof.run();
    }
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    int n = super.read(buffer, offset, length);
    if (n < 0) {
      onEof.run();
    }
    return n;
  }
}
