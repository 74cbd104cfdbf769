package dev.agentcompute.capabilities.adapter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Description;
import dev.agentcompute.codemode.Hints;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.authz.Subject;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every compute capability passes CodeMode's registration rules and describes as the spec says. */
class CodeModeRegistrationTest {
  private static Server server;
  private static List<CapabilityDefinition<?, ?>> definitions;
  private static final Subject SUBJECT = new Subject("local");

  @BeforeAll
  static void build() throws Exception {
    definitions = OfflineCatalogue.definitions();
    server = OfflineCatalogue.server(definitions);
  }

  @AfterAll
  static void close() {
    server.close();
  }

  @Test
  void signaturesMatchTheOriginal() throws Exception {
    Description create = server.describe(Context.background(), SUBJECT, "sandbox.create");
    assertThat(create.signature())
        .isEqualTo(
            "sandbox.create(*, name: str | None, platform: str | None, ttl_minutes: int | None, "
                + "pinned: bool | None)");
    assertThat(server.describe(Context.background(), SUBJECT, "sandbox.list").signature())
        .isEqualTo("sandbox.list()");
    assertThat(server.describe(Context.background(), SUBJECT, "instance.exec").signature())
        .isEqualTo(
            "instance.exec(*, sandbox: str, name: str, command: str, timeout_seconds: int | None, "
                + "user: str | None, cwd: str | None, stdin: str | None, env: str | None, "
                // Ours, after the original's parameters: background processes.
                + "background: bool | None)");
    assertThat(server.describe(Context.background(), SUBJECT, "net.acl.add").signature())
        .isEqualTo(
            "net.acl.add(*, sandbox: str, network: str, direction: str, action: str, protocol: str | None, "
                + "src: str | None, dst: str | None, port: str | None)");
    assertThat(server.describe(Context.background(), SUBJECT, "net.forward").signature())
        .isEqualTo(
            "net.forward(*, sandbox: str, network: str, instance: str, port: int, listen_port: int | None, "
                + "protocol: str | None)");
    assertThat(server.describe(Context.background(), SUBJECT, "net.inspect").signature())
        .isEqualTo("net.inspect(*, sandbox: str, network: str)");
    assertThat(server.describe(Context.background(), SUBJECT, "net.impair").summary())
        .isEqualTo("Apply Linux tc netem impairment on a NIC.");
  }

  @Test
  void everyCapabilityDeclaresItsHints() throws Exception {
    for (CapabilityDefinition<?, ?> d : definitions) {
      assertThat(CapabilityHints.find(d.name())).as("hints of %s", d.name()).isPresent();
      assertThat(server.describe(Context.background(), SUBJECT, d.name()).hints())
          .isEqualTo(CapabilityHints.of(d.name()));
    }
    assertThat(server.describe(Context.background(), SUBJECT, "sandbox.list").hints())
        .isEqualTo(new Hints(true, false, true, false));
    assertThat(server.describe(Context.background(), SUBJECT, "sandbox.delete").hints())
        .isEqualTo(new Hints(false, true, true, false));
    assertThat(server.describe(Context.background(), SUBJECT, "instance.exec").hints())
        .isEqualTo(new Hints(false, true, false, true));
    assertThat(CapabilityHints.of("no.such")).isEqualTo(Hints.defaults());
  }

  record ExecLike(String sandbox, String name, String command) {}

  record CreateLike(Optional<String> name, Optional<String> platform) {}

  @Test
  void theAuditRecordNamesTheSandboxOnly() {
    assertThat(CodeModeRegistration.sandboxOf("instance.exec", new ExecLike("sb-1", "web", "rm")))
        .contains("sb-1");
    assertThat(CodeModeRegistration.sandboxOf("sandbox.delete", new ExecLike("x", "sb-2", "")))
        .contains("sb-2");
    assertThat(
            CodeModeRegistration.sandboxOf(
                "sandbox.create", new CreateLike(Optional.empty(), Optional.of("incus"))))
        .isEmpty();
    assertThat(
            CodeModeRegistration.sandboxOf(
                "sandbox.create", new CreateLike(Optional.of("sb-3"), Optional.empty())))
        .contains("sb-3");
  }

  @Test
  void allThirtyCapabilitiesAreDescribed() throws Exception {
    for (String name :
        new String[] {
          "sandbox.create",
          "sandbox.list",
          "sandbox.get",
          "sandbox.extend",
          "sandbox.pin",
          "sandbox.delete",
          "sandbox.limits",
          "image.list",
          "instance.create",
          "instance.list",
          "instance.get",
          "instance.delete",
          "instance.exec",
          "instance.start",
          "instance.stop",
          "instance.restart",
          "instance.wait",
          "instance.file.read",
          "instance.file.write",
          "instance.file.list",
          "instance.file.stat",
          "instance.file.upload_url",
          "instance.file.download_url",
          "instance.process.list",
          "instance.process.get",
          "instance.process.output",
          "instance.process.wait",
          "instance.process.kill",
          "instance.snapshot.create",
          "instance.snapshot.restore",
          "instance.snapshot.delete",
          "instance.snapshot.list",
          "instance.publish",
          "net.create",
          "net.list",
          "net.get",
          "net.delete",
          "net.attach",
          "net.detach",
          "net.impair",
          "net.peer",
          "net.acl.add",
          "net.acl.remove",
          "net.forward",
          "net.inspect"
        }) {
      assertThat(server.describe(Context.background(), SUBJECT, name).name()).isEqualTo(name);
    }
    assertThat(server.search(Context.background(), SUBJECT, "snapshot").results()).isNotEmpty();
  }
}
