package dev.agentcompute.server.http;

import dev.agentcompute.capabilities.files.TransferGrants;
import dev.agentcompute.capabilities.files.TransferGrants.Direction;
import dev.agentcompute.capabilities.files.TransferGrants.Grant;
import dev.agentcompute.capabilities.model.AgentFacingException;
import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.service.FileService;
import dev.agentcompute.capabilities.service.SandboxAccess;
import dev.agentcompute.server.auth.BearerTokens;
import dev.agentcompute.server.observe.Log;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.spi.ServerFeature;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * File transfer URLs over HTTP (docs/capabilities.md#file-transfer-urls): {@code PUT} (upload) or
 * {@code GET} (download) of {@code <base path>/files/<token>}, streamed between the client and the
 * instance's file API without holding the body. Besides the URL's token, the caller must present
 * the bearer token of the identity the URL was issued to: no or an unknown bearer token is 401; an
 * unknown, expired, used or another identity's URL is the same 404. A URL is used up when its
 * transfer starts.
 */
public final class FileRoutes implements ServerFeature {
  private static final Log LOG = Log.of(FileRoutes.class);
  private static final String BEARER = "Bearer ";
  private static final int PIECE = 1 << 20;

  private final TransferGrants grants;
  private final Supplier<FileService> files;
  private final Optional<BearerTokens> tokens;

  /**
   * @param files the file service in force when a transfer starts
   * @param tokens the bearer identities; empty means unauthenticated with subject development
   */
  public FileRoutes(
      TransferGrants grants, Supplier<FileService> files, Optional<BearerTokens> tokens) {
    this.grants = grants;
    this.files = files;
    this.tokens = tokens;
  }

  /** The request body the listener must let through: the largest upload and some. */
  public long maxPayloadBytes(long otherwise) {
    return Math.max(otherwise, grants.limits().maxUploadBytes() + 1024 * 1024);
  }

  /** Tells grants without {@code files.base_url} where this listener runs. */
  public void servedAt(java.net.URI listenerUrl) {
    grants.servedAt(listenerUrl);
  }

  @Override
  public void setup(ServerFeatureContext context) {
    context
        .socket(WebServer.DEFAULT_SOCKET_NAME)
        .httpRouting()
        .any(grants.routePrefix() + "/{token}", this::serve);
  }

  private void serve(ServerRequest req, ServerResponse res) {
    res.header(HeaderNames.CACHE_CONTROL, "no-store");
    Method method = req.prologue().method();
    Direction direction =
        method.equals(Method.PUT)
            ? Direction.UPLOAD
            : method.equals(Method.GET) ? Direction.DOWNLOAD : null;
    if (direction == null) {
      res.status(Status.METHOD_NOT_ALLOWED_405).header(HeaderNames.ALLOW, "GET, PUT").send();
      return;
    }
    Optional<String> subject = subject(req);
    if (subject.isEmpty()) {
      res.header(HeaderNames.WWW_AUTHENTICATE, "Bearer");
      text(
          res,
          Status.UNAUTHORIZED_401,
          "a file transfer URL needs the bearer token of the identity it was issued to");
      return;
    }
    String token = req.path().pathParameters().get("token");
    Optional<Grant> grant = grants.claim(token, subject.get(), direction);
    if (grant.isEmpty()) {
      Optional<Direction> other = grants.peek(token, subject.get());
      if (other.isPresent()) {
        res.status(Status.METHOD_NOT_ALLOWED_405).header(HeaderNames.ALLOW, other.get().method());
        text(
            res, Status.METHOD_NOT_ALLOWED_405, "this URL takes " + other.get().method() + " only");
        return;
      }
      text(res, Status.NOT_FOUND_404, "unknown, expired or used file transfer URL");
      return;
    }
    try {
      ScopedValue.where(SandboxAccess.CALLER, subject.get())
          .call(
              () -> {
                if (direction == Direction.UPLOAD) {
                  upload(grant.get(), req, res);
                } else {
                  download(grant.get(), res);
                }
                return null;
              });
    } catch (AgentFacingException e) {
      fail(
          res,
          e.getMessage().contains("files.max_upload_bytes")
              ? Status.REQUEST_ENTITY_TOO_LARGE_413
              : Status.BAD_REQUEST_400,
          e.getMessage());
    } catch (BackendException e) {
      LOG.warn("file transfer failed", "path", grant.get().path(), "error", e.getMessage());
      fail(
          res,
          Status.BAD_GATEWAY_502,
          e.agentText().orElse("the instance's file API failed; retry with a new URL"));
    } catch (UncheckedIOException e) {
      // The client went away mid-transfer: nobody is left to answer.
      LOG.debug("file transfer client gone", "path", grant.get().path());
    } catch (RuntimeException e) {
      LOG.error("file transfer failed", e, "path", grant.get().path());
      fail(res, Status.INTERNAL_SERVER_ERROR_500, "file transfer failed");
    } catch (Exception e) {
      LOG.error("file transfer failed", e, "path", grant.get().path());
      fail(res, Status.INTERNAL_SERVER_ERROR_500, "file transfer failed");
    }
  }

  private void upload(Grant grant, ServerRequest req, ServerResponse res) throws Exception {
    long length = req.headers().contentLength().orElse(-1);
    long max = grants.limits().maxUploadBytes();
    if (length > max) {
      // Refused before a byte is read; the connection is closed rather than drained.
      res.header(HeaderNames.CONNECTION, "close");
      text(
          res,
          Status.REQUEST_ENTITY_TOO_LARGE_413,
          "upload of " + length + " bytes exceeds files.max_upload_bytes = " + max);
      return;
    }
    long written;
    try (InputStream body = req.content().inputStream()) {
      written = files.get().upload(grant, body, length);
    }
    text(res, Status.OK_200, written + " bytes written to " + grant.path());
  }

  private void download(Grant grant, ServerResponse res) {
    files
        .get()
        .download(
            grant,
            (file, content) -> {
              res.header(HeaderNames.CONTENT_TYPE, "application/octet-stream");
              res.header(HeaderNames.CONTENT_LENGTH, Long.toString(file.size()));
              try (OutputStream out = res.outputStream()) {
                // Large pieces: the default 16 KiB copy costs a write per piece on both sockets.
                byte[] piece = new byte[PIECE];
                for (int n; (n = content.read(piece)) >= 0; ) {
                  out.write(piece, 0, n);
                }
              }
              return null;
            });
  }

  private Optional<String> subject(ServerRequest req) {
    if (tokens.isEmpty()) {
      return Optional.of(HttpFrontEnd.DEVELOPMENT_SUBJECT);
    }
    Optional<String> header = req.headers().first(HeaderNames.AUTHORIZATION);
    if (header.isEmpty() || !header.get().regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      return Optional.empty();
    }
    return tokens.get().identify(header.get().substring(BEARER.length()).strip());
  }

  private static void fail(ServerResponse res, Status status, String message) {
    if (res.isSent()) {
      return;
    }
    try {
      text(res, status, message);
    } catch (RuntimeException e) {
      // Headers already went out with a streamed body: the cut connection is the answer.
    }
  }

  private static void text(ServerResponse res, Status status, String message) {
    res.status(status);
    res.header(HeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
    res.send((message + "\n").getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public String name() {
    return "files";
  }

  @Override
  public String type() {
    return "files";
  }
}
