package dev.agentcompute.server.http;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.modelcontextprotocol.spec.ProtocolVersions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The header and body checks of the Streamable HTTP transport (MCP 2025-03-26 and later). */
final class RequestChecks {
  static final HeaderName SESSION_ID = HeaderNames.create("Mcp-Session-Id");
  static final HeaderName PROTOCOL_VERSION = HeaderNames.create("MCP-Protocol-Version");
  static final List<String> VERSIONS =
      List.of(
          ProtocolVersions.MCP_2025_03_26,
          ProtocolVersions.MCP_2025_06_18,
          ProtocolVersions.MCP_2025_11_25);

  private RequestChecks() {}

  /**
   * Whether the Accept header lists {@code mediaType} itself. Wildcards ({@code *}{@code /*}, a
   * missing header) do not count: the MCP spec requires clients to list the types they take.
   */
  static boolean accepts(ServerRequest req, String mediaType) {
    return req.headers().values(HeaderNames.ACCEPT).stream()
        .flatMap(v -> Arrays.stream(v.split(",")))
        .map(v -> v.split(";")[0].strip())
        .anyMatch(v -> v.equals(mediaType));
  }

  static boolean isJson(ServerRequest req) {
    return req.headers()
        .contentType()
        .map(t -> t.mediaType().text().equals("application/json"))
        .orElse(false);
  }

  /** The problem with the MCP-Protocol-Version header; absent means 2025-03-26. */
  static Optional<String> protocolVersionProblem(ServerRequest req) {
    Optional<String> version = req.headers().first(PROTOCOL_VERSION);
    if (version.isPresent() && !VERSIONS.contains(version.get())) {
      return Optional.of(
          "Bad Request: Unsupported protocol version: "
              + version.get()
              + " (supported versions: "
              + String.join(", ", VERSIONS)
              + ")");
    }
    return Optional.empty();
  }

  /** The body as UTF-8, at most {@code limit} bytes. */
  static String body(ServerRequest req, int limit) throws IOException {
    if (req.headers().contentLength().orElse(0) > limit) {
      throw new TooLarge();
    }
    try (InputStream in = req.content().inputStream()) {
      byte[] bytes = in.readNBytes(limit + 1);
      if (bytes.length > limit) {
        throw new TooLarge();
      }
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }

  /** A body over the size limit. */
  static final class TooLarge extends IOException {
    TooLarge() {
      super("request body too large", null);
    }
  }
}
