package dev.agentcompute.server.admin;

import dev.agentcompute.capabilities.model.AgentFacingException;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.screenshots.ScreenshotStore;
import dev.agentcompute.capabilities.service.SandboxService;
import dev.agentcompute.server.auth.TokenFileWatcher;
import dev.agentcompute.server.errors.CredentialException;
import dev.agentcompute.server.observe.AdminAudit;
import dev.agentcompute.server.observe.AuditEntry;
import dev.agentcompute.server.observe.AuditRing;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What an operator can see and do, shared by the admin API, the console and (through the API) the
 * CLI: every identity's sandboxes, extending and deleting any of them, the running executes and
 * cancelling one, reloading the bearer tokens, and the recent audit records. Sandboxes are reached
 * as the server's own work, outside owner isolation. Every action leaves an audit record.
 */
public final class AdminService {
  /** The most audit records one answer holds. */
  public static final int MAX_AUDIT_LIMIT = AuditRing.CAPACITY;

  /** Runs an action on the sandbox service in force. */
  @FunctionalInterface
  public interface Sandboxes {
    <T> T with(Function<SandboxService, T> action);
  }

  private final Sandboxes sandboxes;
  private final RunningExecutes executes;
  private final Optional<TokenFileWatcher> tokens;
  private final AuditRing ring;
  private final AdminAudit audit;
  private final Optional<ScreenshotStore> screenshots;
  private final Clock clock;

  public AdminService(
      Sandboxes sandboxes,
      RunningExecutes executes,
      Optional<TokenFileWatcher> tokens,
      AuditRing ring,
      AdminAudit audit,
      Optional<ScreenshotStore> screenshots,
      Clock clock) {
    this.sandboxes = sandboxes;
    this.executes = executes;
    this.tokens = tokens;
    this.ring = ring;
    this.audit = audit;
    this.screenshots = screenshots;
    this.clock = clock;
  }

  public record InstanceView(String name, String kind, String status) {}

  public record ScreenshotView(String id, String path, int width, int height, Instant createdAt) {}

  public record SandboxView(
      String name,
      String owner,
      String platform,
      Instant createdAt,
      Instant expiresAt,
      boolean pinned,
      String pinnedBy,
      int instanceCount,
      List<InstanceView> instances,
      List<ScreenshotView> screenshots) {}

  /** Every sandbox of every identity, with its instances and live screenshots. */
  public List<SandboxView> sandboxes() {
    List<ScreenshotStore.Screenshot> shots =
        screenshots.map(ScreenshotStore::live).orElse(List.of());
    String prefix = screenshots.map(ScreenshotStore::routePrefix).orElse("");
    return sandboxes.with(
        service -> {
          List<SandboxView> out = new ArrayList<>();
          for (SandboxService.Listed listed : service.list()) {
            Sandbox s = listed.sandbox();
            out.add(
                new SandboxView(
                    s.name(),
                    s.subject() == null ? "" : s.subject(),
                    s.platform(),
                    s.createdAt(),
                    s.expiresAt(),
                    s.pinned(),
                    s.pinnedBy() == null ? "" : s.pinnedBy(),
                    listed.instances(),
                    instances(service, s.name()),
                    shots.stream()
                        .filter(shot -> shot.sandbox().equals(s.name()))
                        .map(
                            shot ->
                                new ScreenshotView(
                                    shot.id(),
                                    prefix + "/" + shot.id(),
                                    shot.width(),
                                    shot.height(),
                                    shot.createdAt()))
                        .toList()));
          }
          return out;
        });
  }

  /** The instances of a sandbox; none when it went away since the list was read. */
  private static List<InstanceView> instances(SandboxService service, String name) {
    try {
      return service.get(name).instances().stream()
          .map((SandboxInstance i) -> new InstanceView(i.name(), i.kind(), i.status()))
          .toList();
    } catch (AgentFacingException gone) {
      return List.of();
    }
  }

  /** What an extension did: the expiry in force, and whether a longer one was kept. */
  public record Extended(String name, Instant expiresAt, boolean kept) {}

  public Extended extend(String operator, String name, String duration) {
    return audited(
        operator,
        "sandbox.extend",
        name,
        () -> {
          long minutes = TtlText.minutes(duration);
          SandboxService.Extension e =
              sandboxes.with(service -> agentFacing(() -> service.extend(name, minutes)));
          return new Extended(name, e.expiresAt(), e.kept());
        });
  }

  public void delete(String operator, String name) {
    audited(
        operator,
        "sandbox.delete",
        name,
        () ->
            sandboxes.with(
                service ->
                    agentFacing(
                        () -> {
                          service.delete(name);
                          return name;
                        })));
  }

  public List<RunningExecutes.View> executes() {
    return executes.list();
  }

  public void cancel(String operator, String id) {
    audited(
        operator,
        "execute.cancel",
        id,
        () ->
            switch (executes.cancel(id)) {
              case CANCELED -> id;
              case NOT_RUNNING ->
                  throw new AdminException(
                      404, "execute \"" + id + "\" is not running (it ended or never existed)");
              case NOT_CANCELLABLE ->
                  throw new AdminException(
                      409, "execute \"" + id + "\" runs over stdio and cannot be cancelled");
            });
  }

  public TokenFileWatcher.Result reloadTokens(String operator) {
    return audited(
        operator,
        "tokens.reload",
        "",
        () -> {
          TokenFileWatcher watcher =
              tokens.orElseThrow(
                  () ->
                      new AdminException(
                          409,
                          "this server runs without bearer tokens (no --auth-tokens-file):"
                              + " there is nothing to reload"));
          try {
            return watcher.reload();
          } catch (CredentialException e) {
            throw new AdminException(
                422, e.getMessage() + "; the tokens in force stay: fix the file and reload again");
          }
        });
  }

  /** Up to {@code limit} recent audit records, newest first, of {@code subject} if given. */
  public List<AuditEntry> audit(Optional<String> subject, int limit) {
    if (limit < 1 || limit > MAX_AUDIT_LIMIT) {
      throw new AdminException(
          400, "limit must be between 1 and " + MAX_AUDIT_LIMIT + " (the ring's capacity)");
    }
    return ring.newest(subject.filter(s -> !s.isEmpty()), limit);
  }

  private <T> T audited(String operator, String action, String target, Supplier<T> work) {
    long start = System.nanoTime();
    String outcome = "internal_failure";
    try {
      T result = work.get();
      outcome = "ok";
      return result;
    } catch (AdminException e) {
      outcome = e.status() == 404 ? "not_found" : "refused";
      throw e;
    } finally {
      audit.action(operator, action, target, outcome, Duration.ofNanos(System.nanoTime() - start));
    }
  }

  /** A capability's refusal (not found, expired, past max TTL) as a 404 or 409 with its text. */
  private static <T> T agentFacing(Supplier<T> call) {
    try {
      return call.get();
    } catch (AgentFacingException e) {
      int status = e.getMessage() != null && e.getMessage().endsWith("not found") ? 404 : 409;
      throw new AdminException(status, e.getMessage());
    }
  }

  Instant now() {
    return clock.instant();
  }
}
