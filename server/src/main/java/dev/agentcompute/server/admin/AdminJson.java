package dev.agentcompute.server.admin;

import dev.agentcompute.server.auth.TokenFileWatcher;
import dev.agentcompute.server.observe.AuditEntry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The admin API's JSON shapes, in one place: snake_case keys, times as RFC 3339 strings. */
final class AdminJson {
  private AdminJson() {}

  static Map<String, Object> sandboxes(List<AdminService.SandboxView> views) {
    return Map.of("sandboxes", views.stream().map(AdminJson::sandbox).toList());
  }

  static Map<String, Object> sandbox(AdminService.SandboxView s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", s.name());
    m.put("owner", s.owner());
    m.put("platform", s.platform());
    m.put("created_at", s.createdAt().toString());
    m.put("expires_at", s.expiresAt().toString());
    m.put("pinned", s.pinned());
    m.put("pinned_by", s.pinnedBy());
    m.put("instance_count", s.instanceCount());
    m.put(
        "instances",
        s.instances().stream()
            .map(i -> ordered("name", i.name(), "kind", i.kind(), "status", i.status()))
            .toList());
    m.put(
        "screenshots",
        s.screenshots().stream()
            .map(
                x ->
                    ordered(
                        "id", x.id(),
                        "path", x.path(),
                        "width", x.width(),
                        "height", x.height(),
                        "created_at", x.createdAt().toString()))
            .toList());
    return m;
  }

  static Map<String, Object> extended(AdminService.Extended e) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", e.name());
    m.put("expires_at", e.expiresAt().toString());
    m.put("kept", e.kept());
    return m;
  }

  static Map<String, Object> executes(List<RunningExecutes.View> views) {
    return Map.of(
        "executes",
        views.stream()
            .map(
                v -> {
                  Map<String, Object> m = new LinkedHashMap<>();
                  m.put("id", v.id());
                  m.put("subject", v.subject());
                  m.put("session", v.session());
                  m.put("started_at", v.startedAt().toString());
                  m.put("age_seconds", v.age().toSeconds());
                  m.put("current_call", v.currentCall());
                  m.put("calls_completed", v.callsCompleted());
                  m.put("cancellable", v.cancellable());
                  return m;
                })
            .toList());
  }

  static Map<String, Object> reloaded(TokenFileWatcher.Result r) {
    return ordered("identities", r.identities(), "revoked", List.copyOf(r.revoked()));
  }

  static Map<String, Object> audit(List<AuditEntry> entries) {
    return Map.of(
        "records",
        entries.stream()
            .map(
                e -> {
                  Map<String, Object> m = new LinkedHashMap<>();
                  m.put("time", e.time().toString());
                  m.put("kind", e.kind());
                  m.put("subject", e.subject());
                  m.put("action", e.action());
                  m.put("target", e.target());
                  m.put("outcome", e.outcome());
                  m.put("duration_ms", e.durationMs());
                  return m;
                })
            .toList());
  }

  /** A map that keeps its keys in the order given (JSON answers read the same every time). */
  static Map<String, Object> ordered(Object... keysAndValues) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      m.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return m;
  }

  static Map<String, Object> error(String message) {
    return Map.of("error", message);
  }
}
