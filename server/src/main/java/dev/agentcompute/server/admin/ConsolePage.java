package dev.agentcompute.server.admin;

import dev.agentcompute.server.observe.AuditEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The console's HTML, rendered on the server: plain forms post the actions, so there is no
 * JavaScript at all (and a strict Content-Security-Policy forbids any). Every value from a sandbox,
 * a token name or the request goes through {@link Html}.
 */
final class ConsolePage {
  static final String STYLE =
      """
      body{font:14px system-ui,sans-serif;margin:1.5em;color:#222}
      h1{font-size:1.4em}h2{font-size:1.1em;margin-top:1.6em;border-bottom:1px solid #ccc}
      table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:4px 6px;
      text-align:left;vertical-align:top}th{background:#f3f3f3}form{display:inline}
      .notice{background:#eef7ee;border:1px solid #9c9;padding:6px}.error{background:#fbeaea;
      border:1px solid #d99;padding:6px}img.thumb{max-width:160px;max-height:120px;
      border:1px solid #999}.muted{color:#777}input[type=text]{width:5em}
      """;

  /** Everything one page shows. */
  record Model(
      String operator,
      Instant now,
      List<AdminService.SandboxView> sandboxes,
      List<RunningExecutes.View> executes,
      List<AuditEntry> audit,
      Optional<String> auditSubject,
      Optional<String> notice,
      Optional<String> error,
      boolean loggedInByCookie) {}

  private ConsolePage() {}

  static String render(Model m) {
    StringBuilder h = new StringBuilder(8192);
    head(h, "agentcompute console");
    h.append("<h1>agentcompute console</h1>\n<p>Signed in as <b id=\"operator\">")
        .append(Html.text(m.operator()))
        .append("</b> at ")
        .append(Html.text(m.now()))
        .append(" &middot; <a href=\"/console\">refresh</a>");
    if (m.loggedInByCookie()) {
      h.append(
          " &middot; <form method=\"post\" action=\"/console/logout\"><button>sign out</button></form>");
    }
    h.append("</p>\n");
    m.notice()
        .ifPresent(
            n ->
                h.append("<p class=\"notice\" id=\"notice\">")
                    .append(Html.text(n))
                    .append("</p>\n"));
    m.error()
        .ifPresent(
            e ->
                h.append("<p class=\"error\" id=\"error\">").append(Html.text(e)).append("</p>\n"));
    sandboxes(h, m);
    executes(h, m);
    audit(h, m);
    h.append(
        "<h2>Tokens</h2><form method=\"post\" action=\"/console/tokens/reload\">"
            + "<button id=\"reload-tokens\">reload the token file</button></form>\n");
    return h.append("</body></html>\n").toString();
  }

  private static void sandboxes(StringBuilder h, Model m) {
    h.append("<h2>Sandboxes (").append(m.sandboxes().size()).append(")</h2>\n");
    if (m.sandboxes().isEmpty()) {
      h.append("<p class=\"muted\">No sandboxes.</p>\n");
      return;
    }
    h.append(
        "<table id=\"sandboxes\"><tr><th>Sandbox</th><th>Owner</th><th>Platform</th>"
            + "<th>Expires</th><th>Instances</th><th>Screenshots</th><th>Actions</th></tr>\n");
    for (AdminService.SandboxView s : m.sandboxes()) {
      String name = s.name();
      h.append("<tr class=\"sandbox\" data-name=\"")
          .append(Html.text(name))
          .append("\"><td>")
          .append(Html.text(name))
          .append("</td><td>")
          .append(Html.text(s.owner()))
          .append("</td><td>")
          .append(Html.text(s.platform()))
          .append("</td><td class=\"expiry\">");
      if (s.pinned()) {
        h.append("pinned by ").append(Html.text(s.pinnedBy()));
      } else {
        h.append(Html.text(s.expiresAt()))
            .append(" <span class=\"muted\">(")
            .append(Html.text(remaining(m.now(), s.expiresAt())))
            .append(")</span>");
      }
      h.append("</td><td>").append(s.instanceCount());
      for (AdminService.InstanceView i : s.instances()) {
        h.append("<br>")
            .append(Html.text(i.name()))
            .append(" <span class=\"muted\">")
            .append(Html.text(i.kind()))
            .append(", ")
            .append(Html.text(i.status()))
            .append("</span>");
      }
      h.append("</td><td>");
      for (AdminService.ScreenshotView shot : s.screenshots()) {
        h.append("<a href=\"")
            .append(Html.text(shot.path()))
            .append("\"><img class=\"thumb\" alt=\"screenshot ")
            .append(Html.text(shot.width()))
            .append("x")
            .append(Html.text(shot.height()))
            .append("\" src=\"")
            .append(Html.text(shot.path()))
            .append("\"></a> ");
      }
      String path = "/console/sandboxes/" + Html.url(name);
      h.append("</td><td><form method=\"post\" class=\"extend\" action=\"")
          .append(path)
          .append(
              "/extend\"><input type=\"text\" name=\"duration\" value=\"1h\" aria-label=\"duration\">")
          .append("<button>extend</button></form> <form method=\"post\" class=\"delete\" action=\"")
          .append(path)
          .append("/delete\"><button>delete</button></form></td></tr>\n");
    }
    h.append("</table>\n");
  }

  private static void executes(StringBuilder h, Model m) {
    h.append("<h2>Running executes (").append(m.executes().size()).append(")</h2>\n");
    if (m.executes().isEmpty()) {
      h.append("<p class=\"muted\">No execute is running.</p>\n");
      return;
    }
    h.append(
        "<table id=\"executes\"><tr><th>Execute</th><th>Subject</th><th>Session</th><th>Age</th>"
            + "<th>Current call</th><th>Calls done</th><th></th></tr>\n");
    for (RunningExecutes.View e : m.executes()) {
      h.append("<tr class=\"execute\"><td>")
          .append(Html.text(e.id()))
          .append("</td><td>")
          .append(Html.text(e.subject()))
          .append("</td><td>")
          .append(Html.text(e.session()))
          .append("</td><td>")
          .append(e.age().toSeconds())
          .append(" s</td><td>")
          .append(Html.text(e.currentCall()))
          .append("</td><td>")
          .append(e.callsCompleted())
          .append("</td><td>");
      if (e.cancellable()) {
        h.append("<form method=\"post\" class=\"cancel\" action=\"/console/executes/")
            .append(Html.url(e.id()))
            .append("/cancel\"><button>cancel</button></form>");
      }
      h.append("</td></tr>\n");
    }
    h.append("</table>\n");
  }

  private static void audit(StringBuilder h, Model m) {
    h.append("<h2>Recent audit records</h2>\n<form method=\"get\" action=\"/console\">")
        .append(
            "<label>subject <input type=\"text\" style=\"width:12em\" name=\"subject\" value=\"")
        .append(Html.text(m.auditSubject().orElse("")))
        .append("\"></label> <button>filter</button></form>\n");
    if (m.audit().isEmpty()) {
      h.append("<p class=\"muted\">No audit records.</p>\n");
      return;
    }
    h.append(
        "<table id=\"audit\"><tr><th>Time</th><th>Kind</th><th>Subject</th><th>Action</th>"
            + "<th>Target</th><th>Outcome</th><th>ms</th></tr>\n");
    for (AuditEntry e : m.audit()) {
      h.append("<tr class=\"audit\"><td>")
          .append(Html.text(e.time()))
          .append("</td><td>")
          .append(Html.text(e.kind()))
          .append("</td><td>")
          .append(Html.text(e.subject()))
          .append("</td><td>")
          .append(Html.text(e.action()))
          .append("</td><td>")
          .append(Html.text(e.target()))
          .append("</td><td>")
          .append(Html.text(e.outcome()))
          .append("</td><td>")
          .append(e.durationMs())
          .append("</td></tr>\n");
    }
    h.append("</table>\n");
  }

  /** The sign-in form: the operator pastes a token once; it is kept in an HttpOnly cookie. */
  static String login(Optional<String> error) {
    StringBuilder h = new StringBuilder();
    head(h, "agentcompute console: sign in");
    h.append("<h1>agentcompute console</h1>\n");
    error.ifPresent(
        e -> h.append("<p class=\"error\" id=\"error\">").append(Html.text(e)).append("</p>\n"));
    h.append(
        "<form method=\"post\" action=\"/console/login\"><label>Operator token "
            + "<input type=\"password\" name=\"token\" id=\"token\" autocomplete=\"off\" style=\"width:24em\">"
            + "</label> <button id=\"sign-in\">sign in</button></form>\n"
            + "<p class=\"muted\">The token of an identity listed in admin.operators.</p>\n");
    return h.append("</body></html>\n").toString();
  }

  /** A refusal page (403 for an identity that is no operator). */
  static String refused(String message) {
    StringBuilder h = new StringBuilder();
    head(h, "agentcompute console: refused");
    h.append("<h1>agentcompute console</h1>\n<p class=\"error\" id=\"error\">")
        .append(Html.text(message))
        .append(
            "</p>\n<form method=\"post\" action=\"/console/logout\"><button>sign out</button></form>\n");
    return h.append("</body></html>\n").toString();
  }

  private static void head(StringBuilder h, String title) {
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
        .append(Html.text(title))
        .append("</title><style>")
        .append(STYLE)
        .append("</style></head><body>\n");
  }

  static String remaining(Instant now, Instant expiry) {
    Duration d = Duration.between(now, expiry);
    if (d.isNegative() || d.isZero()) {
      return "expired";
    }
    long minutes = d.toMinutes();
    return minutes >= 60
        ? (minutes / 60) + " h " + (minutes % 60) + " min left"
        : minutes + " min left";
  }
}
