package dev.agentcompute.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.server.observe.AuditEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConsolePageTest {
  private static final Instant NOW = Instant.parse("2026-12-06T15:00:00Z");
  private static final String EVIL = "<script>alert('x')</script>\"><img src=x onerror=alert(1)>";

  private static AdminService.SandboxView sandbox(String name, String owner) {
    return new AdminService.SandboxView(
        name,
        owner,
        "incus",
        NOW.minusSeconds(600),
        NOW.plus(Duration.ofMinutes(90)),
        false,
        "",
        1,
        List.of(new AdminService.InstanceView("web", "container", "Running")),
        List.of(new AdminService.ScreenshotView("abc123", "/screenshots/abc123", 800, 600, NOW)));
  }

  private static String page(
      List<AdminService.SandboxView> sandboxes,
      List<RunningExecutes.View> executes,
      List<AuditEntry> audit,
      Optional<String> subject,
      Optional<String> notice) {
    return ConsolePage.render(
        new ConsolePage.Model(
            "alice", NOW, sandboxes, executes, audit, subject, notice, Optional.empty(), true));
  }

  @Test
  void showsSandboxesWithOwnerInstancesExpiryScreenshotsAndActions() {
    String html =
        page(
            List.of(sandbox("demo", "bob")),
            List.of(),
            List.of(),
            Optional.empty(),
            Optional.empty());
    assertThat(html)
        .contains("<td>demo</td><td>bob</td><td>incus</td>")
        .contains("2026-12-06T16:30:00Z")
        .contains("1 h 30 min left")
        .contains("web <span class=\"muted\">container, Running</span>")
        .contains("<img class=\"thumb\" alt=\"screenshot 800x600\" src=\"/screenshots/abc123\">")
        .contains("action=\"/console/sandboxes/demo/extend\"")
        .contains("action=\"/console/sandboxes/demo/delete\"")
        .doesNotContain("<script");
  }

  @Test
  void showsRunningExecutesWithTheirCallInProgressAndACancelButton() {
    String html =
        page(
            List.of(),
            List.of(
                new RunningExecutes.View(
                    "ex-0001",
                    "bob",
                    "s-1",
                    NOW.minusSeconds(42),
                    Duration.ofSeconds(42),
                    "instance.exec",
                    3,
                    true)),
            List.of(),
            Optional.empty(),
            Optional.empty());
    assertThat(html)
        .contains(
            "<td>ex-0001</td><td>bob</td><td>s-1</td><td>42 s</td><td>instance.exec</td><td>3</td>")
        .contains("action=\"/console/executes/ex-0001/cancel\"");
  }

  @Test
  void everyValueFromASandboxASubjectOrTheRequestIsEscaped() {
    String html =
        page(
            List.of(sandbox(EVIL, EVIL)),
            List.of(new RunningExecutes.View(EVIL, EVIL, EVIL, NOW, Duration.ZERO, EVIL, 0, true)),
            List.of(new AuditEntry(NOW, "admin", EVIL, EVIL, EVIL, EVIL, 1)),
            Optional.of(EVIL),
            Optional.of(EVIL));
    assertThat(html)
        .doesNotContain("<script")
        .doesNotContain("<img src=x")
        .doesNotContain("'x'")
        .contains(
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(1)&gt;")
        // In a URL the name is percent-encoded, so it cannot leave the attribute either.
        .contains("action=\"/console/sandboxes/%3Cscript%3Ealert%28%27x%27%29");
  }

  @Test
  void theAuditFilterKeepsTheSubjectInItsField() {
    String html =
        page(
            List.of(),
            List.of(),
            List.of(new AuditEntry(NOW, "native_call", "bob", "sandbox.create", "demo", "ok", 12)),
            Optional.of("bob"),
            Optional.empty());
    assertThat(html)
        .contains("name=\"subject\" value=\"bob\"")
        .contains(
            "<td>native_call</td><td>bob</td><td>sandbox.create</td><td>demo</td><td>ok</td>");
  }

  @Test
  void theSignInPageAsksForATokenAndShowsNoValueBack() {
    String html = ConsolePage.login(Optional.of(EVIL));
    assertThat(html).contains("type=\"password\" name=\"token\"").doesNotContain("<script");
  }
}
