package dev.agentcompute.capabilities.instance;

import dev.agentcompute.capabilities.CapabilityDefinition;
import dev.agentcompute.capabilities.Views.Empty;
import dev.agentcompute.capabilities.Views.InstanceItem;
import dev.agentcompute.capabilities.Views.NicView;
import dev.agentcompute.capabilities.compute.ComputeService;
import dev.agentcompute.capabilities.compute.ExecRequest;
import dev.agentcompute.capabilities.compute.ExecResult;
import dev.agentcompute.capabilities.compute.Instance;
import dev.agentcompute.capabilities.compute.Timestamps;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/** instance.* (spec §2.3 to §2.6). */
public final class InstanceCapabilities {
  private InstanceCapabilities() {}

  public record CreateInput(String sandbox, String name, String image, Optional<String> kind, OptionalLong cpus,
      OptionalLong memory_mb, OptionalLong disk_gb, Optional<String> network, Optional<String> host,
      Optional<Boolean> start) {}

  public record CreateOutput(String name, String kind, String host, String status,
      Map<String, List<String>> addresses) {}

  public record SandboxInput(String sandbox) {}

  public record ListOutput(List<InstanceItem> items) {}

  public record RefInput(String sandbox, String name) {}

  public record GetOutput(String name, String kind, String image, String status, long cpus, long memory_mb,
      List<NicView> nics, boolean desktop, List<String> snapshots) {}

  public record ExecInput(String sandbox, String name, String command, OptionalLong timeout_seconds,
      Optional<String> user, Optional<String> cwd, Optional<String> stdin, Optional<String> env) {}

  public record ExecOutput(long exit_code, String stdout, String stderr, boolean stdout_truncated,
      boolean stderr_truncated, boolean timed_out) {}

  public record StateInput(String sandbox, String name, Optional<Boolean> force) {}

  public record StateOutput(String status) {}

  public record WaitInput(String sandbox, String name, String until, OptionalLong timeout_seconds) {}

  public record WaitOutput(String status, long elapsed_seconds) {}

  public record ReadInput(String sandbox, String name, String path, OptionalLong max_bytes) {}

  public record ReadOutput(String content, boolean truncated) {}

  public record WriteInput(String sandbox, String name, String path, String content, Optional<String> mode) {}

  public record WriteOutput(long bytes) {}

  public record SnapshotInput(String sandbox, String name, String snapshot) {}

  public record SnapshotItem(String name, String created_at) {}

  public record SnapshotListOutput(List<SnapshotItem> items) {}

  public record PublishInput(String sandbox, String name, String image) {}

  public record PublishOutput(String image) {}

  public static List<CapabilityDefinition<?, ?>> definitions(ComputeService service) {
    return List.of(
        new CapabilityDefinition<>("instance.create", "Create a container in a sandbox.",
            List.of("launch", "container", "vm", "new instance"), CreateInput.class, CreateOutput.class,
            (subject, in) -> {
              Instance i = service.createInstance(in.sandbox(), in.name(), in.image(),
                  new ComputeService.CreateOptions(in.kind().orElse(null), intOrNull(in.cpus()),
                      intOrNull(in.memory_mb()), intOrNull(in.disk_gb()), in.network().orElse(null),
                      in.host().orElse(null), in.start().orElse(null)));
              return new CreateOutput(i.name(), i.kind(), i.location(), i.status(), i.addresses());
            }),
        new CapabilityDefinition<>("instance.list", "List instances in a sandbox.", List.of("instances"),
            SandboxInput.class, ListOutput.class,
            (subject, in) -> new ListOutput(service.listInstances(in.sandbox()).stream()
                .map(InstanceItem::of).toList())),
        new CapabilityDefinition<>("instance.get", "Get one instance including NICs and snapshots.",
            List.of("instance details", "nics"), RefInput.class, GetOutput.class,
            (subject, in) -> {
              Instance i = service.getInstance(in.sandbox(), in.name());
              return new GetOutput(i.name(), i.kind(), i.image(), i.status(), i.cpus(), i.memoryMb(),
                  i.nics().stream().map(NicView::of).toList(), i.desktop(), i.snapshots());
            }),
        new CapabilityDefinition<>("instance.delete", "Delete an instance from a sandbox.",
            List.of("remove instance"), RefInput.class, Empty.class,
            (subject, in) -> {
              service.deleteInstance(in.sandbox(), in.name());
              return new Empty();
            }),
        new CapabilityDefinition<>("instance.exec", "Run a shell command in an instance.",
            List.of("shell", "command", "run"), ExecInput.class, ExecOutput.class,
            (subject, in) -> exec(service, in)),
        state(service, "instance.start", "Start an instance and wait until it is running.", "start"),
        state(service, "instance.stop", "Stop an instance and wait until it is stopped.", "stop"),
        state(service, "instance.restart", "Restart an instance and wait until it is running.", "restart"),
        new CapabilityDefinition<>("instance.wait", "Wait until an instance reaches a readiness stage.",
            List.of("ready", "boot"), WaitInput.class, WaitOutput.class,
            (subject, in) -> {
              ComputeService.Waited w = service.waitFor(in.sandbox(), in.name(), in.until(),
                  ExecArguments.timeout(in.timeout_seconds().orElse(0)));
              return new WaitOutput(w.status(), w.elapsedSeconds());
            }),
        new CapabilityDefinition<>("instance.file.read", "Read a text-sized file from an instance.",
            List.of("cat", "download"), ReadInput.class, ReadOutput.class,
            (subject, in) -> {
              ComputeService.FileRead r = service.readFile(in.sandbox(), in.name(), in.path(),
                  in.max_bytes().orElse(0));
              return new ReadOutput(new String(r.content(), StandardCharsets.UTF_8), r.truncated());
            }),
        new CapabilityDefinition<>("instance.file.write", "Write a text-sized file to an instance.",
            List.of("upload", "put file"), WriteInput.class, WriteOutput.class,
            (subject, in) -> new WriteOutput(service.writeFile(in.sandbox(), in.name(), in.path(),
                in.content().getBytes(StandardCharsets.UTF_8), in.mode().orElse(null)))),
        snapshot(service, "instance.snapshot.create", "Create an instance snapshot.", "create"),
        snapshot(service, "instance.snapshot.restore",
            "Recreate and start the same instance name from a snapshot. Deletes its old snapshots; identity changes "
                + "and MAC/DHCP lease may change.", "restore"),
        snapshot(service, "instance.snapshot.delete", "Delete an instance snapshot.", "delete"),
        new CapabilityDefinition<>("instance.snapshot.list", "List instance snapshots.", List.of("snapshots"),
            RefInput.class, SnapshotListOutput.class,
            (subject, in) -> new SnapshotListOutput(service.listSnapshots(in.sandbox(), in.name()).stream()
                .map(s -> new SnapshotItem(s.name(), Timestamps.output(s.createdAt()))).toList())),
        new CapabilityDefinition<>("instance.publish", "Publish a sandbox-scoped image from an instance.",
            List.of("image", "save"), PublishInput.class, PublishOutput.class,
            (subject, in) -> new PublishOutput(service.publish(in.sandbox(), in.name(), in.image()))));
  }

  private static Integer intOrNull(OptionalLong value) {
    return value.isPresent() ? Math.toIntExact(value.getAsLong()) : null;
  }

  private static CapabilityDefinition<StateInput, StateOutput> state(ComputeService service, String name,
      String summary, String action) {
    return new CapabilityDefinition<>(name, summary, List.of("power", action), StateInput.class, StateOutput.class,
        (subject, in) -> new StateOutput(service.changeState(in.sandbox(), in.name(), action,
            in.force().orElse(false))));
  }

  private static CapabilityDefinition<SnapshotInput, Empty> snapshot(ComputeService service, String name,
      String summary, String op) {
    return new CapabilityDefinition<>(name, summary, List.of("snapshot", op), SnapshotInput.class, Empty.class,
        (subject, in) -> {
          service.snapshot(op, in.sandbox(), in.name(), in.snapshot());
          return new Empty();
        });
  }

  private static ExecOutput exec(ComputeService service, ExecInput in) {
    var timeout = ExecArguments.timeout(in.timeout_seconds().orElse(0));
    var env = ExecArguments.env(in.env().orElse(null));
    int uid = ExecArguments.user(in.user().orElse(""));
    ExecResult r = service.exec(in.sandbox(), in.name(),
        new ExecRequest(List.of("sh", "-c", in.command()), env, in.cwd().orElse(""), uid, in.stdin().orElse(""),
            timeout));
    return new ExecOutput(r.exitCode(), r.stdout(), r.stderr(), r.stdoutTruncated(), r.stderrTruncated(),
        r.timedOut());
  }
}
