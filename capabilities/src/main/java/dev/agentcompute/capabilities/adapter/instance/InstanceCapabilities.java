package dev.agentcompute.capabilities.adapter.instance;

import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.adapter.Views.Empty;
import dev.agentcompute.capabilities.adapter.Views.InstanceItem;
import dev.agentcompute.capabilities.adapter.Views.NicView;
import dev.agentcompute.capabilities.model.ExecRequest;
import dev.agentcompute.capabilities.model.ExecResult;
import dev.agentcompute.capabilities.model.InstanceAction;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.model.SnapshotOp;
import dev.agentcompute.capabilities.model.Timestamps;
import dev.agentcompute.capabilities.model.WaitStage;
import dev.agentcompute.capabilities.service.FileService;
import dev.agentcompute.capabilities.service.InstanceService;
import dev.agentcompute.capabilities.service.ProcessService;
import dev.agentcompute.capabilities.service.SnapshotService;
import dev.agentcompute.codemode.OneOf;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * instance.* (docs/reference/capabilities.md#instances, #lifecycle, #files,
 * #snapshots-and-publishing); the streamed file capabilities are {@link FileCapabilities}.
 */
public final class InstanceCapabilities {
  private InstanceCapabilities() {}

  public record CreateInput(
      String sandbox,
      String name,
      String image,
      Optional<String> kind,
      OptionalLong cpus,
      OptionalLong memory_mb,
      OptionalLong disk_gb,
      Optional<String> network,
      Optional<String> host,
      Optional<Boolean> start) {

    /** The instance with every option left to its default, as an agent's shortest call has it. */
    public static CreateInput of(String sandbox, String name, String image) {
      return new CreateInput(
          sandbox,
          name,
          image,
          Optional.empty(),
          OptionalLong.empty(),
          OptionalLong.empty(),
          OptionalLong.empty(),
          Optional.empty(),
          Optional.empty(),
          Optional.empty());
    }
  }

  public record CreateOutput(
      String name, String kind, String host, String status, Map<String, List<String>> addresses) {}

  public record SandboxInput(String sandbox) {}

  public record ListOutput(List<InstanceItem> items) {}

  public record RefInput(String sandbox, String name) {}

  public record GetOutput(
      String name,
      String kind,
      String image,
      String status,
      long cpus,
      long memory_mb,
      List<NicView> nics,
      boolean desktop,
      List<String> snapshots,
      String host) {}

  public record ExecInput(
      String sandbox,
      String name,
      String command,
      OptionalLong timeout_seconds,
      Optional<String> user,
      Optional<String> cwd,
      Optional<String> stdin,
      Optional<String> env,
      Optional<Boolean> background) {
    /** In the foreground. */
    public ExecInput(
        String sandbox,
        String name,
        String command,
        OptionalLong timeout_seconds,
        Optional<String> user,
        Optional<String> cwd,
        Optional<String> stdin,
        Optional<String> env) {
      this(sandbox, name, command, timeout_seconds, user, cwd, stdin, env, Optional.empty());
    }
  }

  public record StateInput(String sandbox, String name, Optional<Boolean> force) {}

  public record StateOutput(String status) {}

  /** {@code until}'s values are {@link WaitStage}'s wire names (CapabilityDocsTest). */
  public record WaitInput(
      String sandbox,
      String name,
      @OneOf({"running", "agent", "network", "desktop", "stopped"}) String until,
      OptionalLong timeout_seconds) {}

  public record WaitOutput(String status, long elapsed_seconds) {}

  public record ReadInput(
      String sandbox,
      String name,
      String path,
      OptionalLong max_bytes,
      OptionalLong offset,
      OptionalLong length) {
    /** From the start, at most {@code max_bytes}. */
    public ReadInput(String sandbox, String name, String path, OptionalLong max_bytes) {
      this(sandbox, name, path, max_bytes, OptionalLong.empty(), OptionalLong.empty());
    }
  }

  public record ReadOutput(String content, boolean truncated, long size, long next_offset) {}

  public record WriteInput(
      String sandbox, String name, String path, String content, Optional<String> mode) {}

  public record WriteOutput(long bytes) {}

  public record SnapshotInput(String sandbox, String name, String snapshot) {}

  public record SnapshotItem(String name, String created_at) {}

  public record SnapshotListOutput(List<SnapshotItem> items) {}

  public record PublishInput(String sandbox, String name, String image) {}

  public record PublishOutput(String image) {}

  public static List<CapabilityDefinition<?, ?>> definitions(
      InstanceService instances,
      SnapshotService snapshots,
      FileService files,
      ProcessService processes) {
    return List.of(
        new CapabilityDefinition<>(
            "instance.create",
            "Create a container in a sandbox.",
            List.of("launch", "container", "vm", "new instance"),
            CreateInput.class,
            CreateOutput.class,
            (subject, in) -> {
              SandboxInstance i =
                  instances.create(
                      in.sandbox(),
                      in.name(),
                      in.image(),
                      new InstanceService.CreateOptions(
                          in.kind().orElse(null),
                          longOrNull(in.cpus()),
                          longOrNull(in.memory_mb()),
                          longOrNull(in.disk_gb()),
                          in.network().orElse(null),
                          in.host().orElse(null),
                          in.start().orElse(null)));
              return new CreateOutput(i.name(), i.kind(), i.location(), i.status(), i.addresses());
            }),
        new CapabilityDefinition<>(
            "instance.list",
            "List instances in a sandbox.",
            List.of("instances"),
            SandboxInput.class,
            ListOutput.class,
            (subject, in) ->
                new ListOutput(
                    instances.list(in.sandbox()).stream().map(InstanceItem::of).toList())),
        new CapabilityDefinition<>(
            "instance.get",
            "Get one instance including NICs and snapshots.",
            List.of("instance details", "nics"),
            RefInput.class,
            GetOutput.class,
            (subject, in) -> {
              SandboxInstance i = instances.get(in.sandbox(), in.name());
              return new GetOutput(
                  i.name(),
                  i.kind(),
                  i.image(),
                  i.status(),
                  i.cpus(),
                  i.memoryMb(),
                  i.nics().stream().map(NicView::of).toList(),
                  i.desktop(),
                  i.snapshots(),
                  i.location());
            }),
        new CapabilityDefinition<>(
            "instance.delete",
            "Delete an instance from a sandbox.",
            List.of("remove instance"),
            RefInput.class,
            Empty.class,
            (subject, in) -> {
              instances.delete(in.sandbox(), in.name());
              return new Empty();
            }),
        new CapabilityDefinition<>(
            "instance.exec",
            "Run a shell command in an instance.",
            List.of("shell", "command", "run", "background"),
            ExecInput.class,
            ExecResult.class,
            (subject, in) ->
                in.background().orElse(false)
                    ? ProcessCapabilities.startBackground(processes, in)
                    : instances.exec(in.sandbox(), in.name(), foreground(in))),
        state(
            instances,
            "instance.start",
            "Start an instance and wait until it is running.",
            InstanceAction.START),
        state(
            instances,
            "instance.stop",
            "Stop an instance and wait until it is stopped.",
            InstanceAction.STOP),
        state(
            instances,
            "instance.restart",
            "Restart an instance and wait until it is running.",
            InstanceAction.RESTART),
        new CapabilityDefinition<>(
            "instance.wait",
            "Wait until an instance reaches a readiness stage.",
            List.of("ready", "boot"),
            WaitInput.class,
            WaitOutput.class,
            (subject, in) -> {
              WaitStage until = WaitStage.parse(in.until());
              InstanceService.Waited w =
                  instances.waitFor(
                      in.sandbox(),
                      in.name(),
                      until,
                      ExecArguments.timeout(in.timeout_seconds().orElse(0)));
              return new WaitOutput(w.status(), w.elapsedSeconds());
            }),
        new CapabilityDefinition<>(
            "instance.file.read",
            "Read a text-sized file, or a part of one from an offset, from an instance.",
            List.of("cat", "download", "offset"),
            ReadInput.class,
            ReadOutput.class,
            (subject, in) -> FileCapabilities.read(files, in)),
        new CapabilityDefinition<>(
            "instance.file.write",
            "Write a text-sized file to an instance.",
            List.of("upload", "put file"),
            WriteInput.class,
            WriteOutput.class,
            (subject, in) ->
                new WriteOutput(
                    instances.writeFile(
                        in.sandbox(),
                        in.name(),
                        in.path(),
                        in.content().getBytes(StandardCharsets.UTF_8),
                        in.mode().orElse(null)))),
        snapshot(
            snapshots,
            "instance.snapshot.create",
            "Create an instance snapshot.",
            SnapshotOp.CREATE),
        snapshot(
            snapshots,
            "instance.snapshot.restore",
            "Recreate and start the same instance name from a snapshot. Deletes its old snapshots; identity changes "
                + "and MAC/DHCP lease may change.",
            SnapshotOp.RESTORE),
        snapshot(
            snapshots,
            "instance.snapshot.delete",
            "Delete an instance snapshot.",
            SnapshotOp.DELETE),
        new CapabilityDefinition<>(
            "instance.snapshot.list",
            "List instance snapshots.",
            List.of("snapshots"),
            RefInput.class,
            SnapshotListOutput.class,
            (subject, in) ->
                new SnapshotListOutput(
                    snapshots.list(in.sandbox(), in.name()).stream()
                        .map(s -> new SnapshotItem(s.name(), Timestamps.output(s.createdAt())))
                        .toList())),
        new CapabilityDefinition<>(
            "instance.publish",
            "Publish a sandbox-scoped image from an instance.",
            List.of("image", "save"),
            PublishInput.class,
            PublishOutput.class,
            (subject, in) ->
                new PublishOutput(snapshots.publish(in.sandbox(), in.name(), in.image()))));
  }

  private static Long longOrNull(OptionalLong value) {
    return value.isPresent() ? value.getAsLong() : null;
  }

  private static CapabilityDefinition<StateInput, StateOutput> state(
      InstanceService instances, String name, String summary, InstanceAction action) {
    return new CapabilityDefinition<>(
        name,
        summary,
        List.of("power", action.wireName()),
        StateInput.class,
        StateOutput.class,
        (subject, in) ->
            new StateOutput(
                instances.changeState(in.sandbox(), in.name(), action, in.force().orElse(false))));
  }

  private static CapabilityDefinition<SnapshotInput, Empty> snapshot(
      SnapshotService snapshots, String name, String summary, SnapshotOp op) {
    return new CapabilityDefinition<>(
        name,
        summary,
        List.of("snapshot", op.wireName()),
        SnapshotInput.class,
        Empty.class,
        (subject, in) -> {
          snapshots.snapshot(op, in.sandbox(), in.name(), in.snapshot());
          return new Empty();
        });
  }

  /**
   * A foreground instance.exec's request: {@link #request} with its output lines reported as
   * progress while it runs long (docs/capabilities.md#output-as-it-comes), the one exec whose
   * output the agent asked for.
   */
  static ExecRequest foreground(ExecInput in) {
    return request(in).withProgress(true);
  }

  /**
   * instance.exec's one request (docs/reference/exec-path.md): {@code sh -c command}, which the
   * service rewraps for Windows guests; an empty {@code user} or {@code cwd} is absent. It reports
   * no progress: the foreground path asks for that ({@link #foreground}), a background start never.
   */
  static ExecRequest request(ExecInput in) {
    var timeout = ExecArguments.timeout(in.timeout_seconds().orElse(0));
    return new ExecRequest(
        ExecRequest.shell(in.command()).argv(),
        ExecArguments.env(in.env().orElse(null)),
        in.cwd().filter(cwd -> !cwd.isEmpty()),
        in.user().filter(user -> !user.isEmpty()),
        in.stdin(),
        timeout);
  }
}
