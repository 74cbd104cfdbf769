package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.CommandStream;
import dev.agentcompute.capabilities.model.ComputeException;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.ExecRequest;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.platform.InstanceDriver;
import dev.agentcompute.capabilities.platform.PlatformRouter;
import dev.agentcompute.capabilities.screenshots.ScreenshotStore;
import io.modelcontextprotocol.spec.McpSchema;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Cua Driver of Windows guests (docs/reference/capabilities.md#desktops), driven as the
 * original drives it: one long-lived exec of {@code cua-driver-proxy.exe mcp} per instance, run
 * directly (not through the PowerShell wrapper) in {@code C:\ProgramData\agentcompute} as the Incus
 * agent's identity, and spoken to over MCP ({@link DriverSession}). Sessions are cached per sandbox
 * and instance and reused by later calls; one whose stream has ended is replaced before anything is
 * sent, one that lost a call's answer is dropped and the call is not repeated (the action may have
 * been applied). Screenshots go to a random {@code C:\ProgramData\agentcompute\cua-<32 hex>.png},
 * read back through the file API and deleted.
 */
final class WindowsDriver implements AutoCloseable {
  private static final Logger LOG = System.getLogger(WindowsDriver.class.getName());

  static final String HOME = "C:\\ProgramData\\agentcompute";
  static final List<String> PROXY =
      List.of(
          HOME + "\\cua-driver\\cua-driver-proxy.exe",
          "mcp",
          "--socket",
          "\\\\.\\pipe\\cua-driver");

  /** The readiness probe: a tool every Windows Driver has, harmless to call. */
  static final String READY_TOOL = "list_windows";

  /** A handshake answers within the CLI status bound; a call within the CLI call bound. */
  static final Duration HANDSHAKE_TIMEOUT = DesktopDriver.STATUS_TIMEOUT;

  static final Duration CALL_TIMEOUT = DesktopDriver.CALL_TIMEOUT;

  private record Key(String sandbox, String instance) {}

  /** What the handshake told: the Driver's version and tool names. */
  record Handshake(String version, List<String> tools) {}

  /** A call's answer and the PNG the tool wrote (empty when it wrote none). */
  record Reply(McpSchema.CallToolResult result, byte[] png) {}

  private final PlatformRouter router;
  private final SecureRandom random = new SecureRandom();
  private final ConcurrentMap<Key, DriverSession> sessions = new ConcurrentHashMap<>();
  private volatile boolean closed;

  WindowsDriver(PlatformRouter router) {
    this.router = router;
  }

  /** The handshake of the instance's session; empty when the proxy cannot be reached. */
  Optional<Handshake> handshake(Sandbox sandbox, SandboxInstance instance) {
    return session(sandbox, instance).map(s -> new Handshake(s.version(), s.tools()));
  }

  /** True when {@value #READY_TOOL} answers without an error; any failure is "not yet". */
  boolean ready(Sandbox sandbox, SandboxInstance instance) {
    try {
      Optional<DriverSession> session = session(sandbox, instance);
      return session.isPresent()
          && !Boolean.TRUE.equals(
              invoke(sandbox, instance, session.get(), READY_TOOL, "{}").isError());
    } catch (ComputeException e) {
      return false;
    }
  }

  /**
   * {@code tools/call} of {@code tool} with {@code args} plus {@code screenshot_out_file}; the PNG
   * the tool wrote there is read back (at most {@link ScreenshotStore#MAX_IMAGE_BYTES}) and
   * deleted.
   */
  Reply call(Sandbox sandbox, SandboxInstance instance, String tool, ObjectNode args) {
    DriverSession session =
        session(sandbox, instance).orElseThrow(() -> Errors.of("Driver daemon is not running"));
    String png = randomPng();
    ObjectNode arguments = args.deepCopy().put("screenshot_out_file", png);
    InstanceDriver files = router.instances(sandbox);
    boolean written = true;
    try {
      McpSchema.CallToolResult result =
          invoke(sandbox, instance, session, tool, DriverResults.compact(arguments));
      Optional<byte[]> image =
          files.readFileIfPresent(sandbox, instance.name(), png, ScreenshotStore.MAX_IMAGE_BYTES);
      written = image.isPresent();
      if (written && image.get().length > ScreenshotStore.MAX_IMAGE_BYTES) {
        throw Errors.of("screenshot exceeds the %d byte limit", ScreenshotStore.MAX_IMAGE_BYTES);
      }
      return new Reply(result, image.orElse(new byte[0]));
    } finally {
      if (written) {
        delete(files, sandbox, instance, png);
      }
    }
  }

  /** Drops the sessions of a deleted or reaped sandbox (their streams end with its instances). */
  void forget(String sandbox) {
    sessions.forEach(
        (key, session) -> {
          if (key.sandbox().equals(sandbox) && sessions.remove(key, session)) {
            session.close();
          }
        });
  }

  @Override
  public void close() {
    closed = true;
    sessions.forEach(
        (key, session) -> {
          if (sessions.remove(key, session)) {
            session.close();
          }
        });
  }

  /**
   * The cached session, or a new one; empty when the proxy cannot be started or does not complete
   * the MCP handshake.
   */
  private Optional<DriverSession> session(Sandbox sandbox, SandboxInstance instance) {
    if (closed) {
      throw Errors.of("desktop driver is closed");
    }
    Key key = new Key(sandbox.name(), instance.name());
    DriverSession cached = sessions.get(key);
    if (cached != null && cached.isOpen()) {
      return Optional.of(cached);
    }
    if (cached != null) {
      // Its stream ended (the instance restarted, the proxy exited): nothing was lost.
      drop(key, cached);
    }
    Optional<DriverSession> opened = open(sandbox, instance);
    if (opened.isEmpty()) {
      return opened;
    }
    DriverSession raced = sessions.putIfAbsent(key, opened.get());
    if (raced != null) {
      opened.get().close();
      return Optional.of(raced);
    }
    if (closed) {
      drop(key, opened.get());
      throw Errors.of("desktop driver is closed");
    }
    return opened;
  }

  private Optional<DriverSession> open(Sandbox sandbox, SandboxInstance instance) {
    CommandStream stream;
    try {
      stream =
          router
              .instances(sandbox)
              .openStream(
                  sandbox, instance.name(), ExecRequest.of(PROXY).withCwd(Optional.of(HOME)));
    } catch (BackendException e) {
      if (e.isNotFound()) {
        throw Errors.instanceNotFound(instance.name(), sandbox.name());
      }
      log(sandbox, instance, "could not be started: " + e.getMessage());
      return Optional.empty();
    }
    DriverSession session;
    try {
      session = DriverSession.open(stream, HANDSHAKE_TIMEOUT, CALL_TIMEOUT);
    } catch (DriverSession.Failure e) {
      log(sandbox, instance, "did not complete the MCP handshake: " + e.getMessage());
      return Optional.empty();
    }
    if (session.version().isEmpty() || session.tools().isEmpty()) {
      session.close();
      throw Errors.of("Driver MCP must include version and tools");
    }
    return Optional.of(session);
  }

  /**
   * One {@code tools/call}. A failure other than a refusal drops the session (the next call opens a
   * new one) and is never retried here.
   */
  private McpSchema.CallToolResult invoke(
      Sandbox sandbox,
      SandboxInstance instance,
      DriverSession session,
      String tool,
      String arguments) {
    try {
      return session.call(tool, arguments);
    } catch (DriverSession.Failure e) {
      if (e.kind() != DriverSession.Failure.Kind.REFUSED) {
        drop(new Key(sandbox.name(), instance.name()), session);
        log(sandbox, instance, "lost its session during " + tool + ": " + e.getMessage());
      }
      throw switch (e.kind()) {
        case LOST ->
            Errors.of(
                "the Driver's connection ended before it answered %s; the call may have taken"
                    + " effect: check before repeating it",
                tool);
        case TIMED_OUT ->
            Errors.of("Driver did not answer within %d seconds", CALL_TIMEOUT.toSeconds());
        case TOO_LARGE -> Errors.of("Driver output exceeds the 4 MiB JSON limit");
        case REFUSED -> Errors.of("Driver refused %s: %s", tool, e.getMessage());
      };
    }
  }

  private void drop(Key key, DriverSession session) {
    sessions.remove(key, session);
    session.close();
  }

  private String randomPng() {
    byte[] token = new byte[16];
    random.nextBytes(token);
    return HOME + "\\cua-" + HexFormat.of().formatHex(token) + ".png";
  }

  /** Removes a screenshot file even for a cancelled caller; a failure is only logged. */
  private static void delete(
      InstanceDriver files, Sandbox sandbox, SandboxInstance instance, String path) {
    boolean interrupted = Thread.interrupted();
    try {
      files.deleteFile(sandbox, instance.name(), path);
    } catch (ComputeException e) {
      log(sandbox, instance, "left " + path + " behind: " + e.getMessage());
    } catch (RuntimeException e) {
      log(sandbox, instance, "left " + path + " behind: " + e);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static void log(Sandbox sandbox, SandboxInstance instance, String what) {
    LOG.log(
        Level.WARNING,
        () ->
            "windows driver proxy sandbox="
                + sandbox.name()
                + " instance="
                + instance.name()
                + " "
                + what);
  }
}
