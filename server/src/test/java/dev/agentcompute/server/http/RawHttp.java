package dev.agentcompute.server.http;

import java.io.IOException;
import java.io.InputStream;

/** Reading what the server sends on a raw socket, for tests that speak HTTP by hand. */
public final class RawHttp {
  private RawHttp() {}

  /** Everything the server sends until it closes the connection (a reset counts as closed). */
  public static String readUntilClosed(InputStream in) throws IOException {
    StringBuilder seen = new StringBuilder();
    try {
      for (int c = in.read(); c >= 0; c = in.read()) {
        seen.append((char) c);
      }
    } catch (java.net.SocketException reset) {
      // closed with unread data on the server side
    }
    return seen.toString();
  }
}
