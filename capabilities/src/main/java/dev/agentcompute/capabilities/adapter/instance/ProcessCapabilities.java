package dev.agentcompute.capabilities.adapter.instance;

import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.adapter.instance.InstanceCapabilities.ExecInput;
import dev.agentcompute.capabilities.model.ExecResult;
import dev.agentcompute.capabilities.model.ProcessEnd;
import dev.agentcompute.capabilities.model.ProcessInfo;
import dev.agentcompute.capabilities.model.Timestamps;
import dev.agentcompute.capabilities.service.ProcessService;
import dev.agentcompute.codemode.OmitEmpty;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * instance.exec(background=True) and instance.process.*
 * (docs/capabilities.md#background-processes): commands that outlive the execute, read back by id
 * from any server.
 */
public final class ProcessCapabilities {
  private ProcessCapabilities() {}

  public record InstanceRef(String sandbox, String name) {}

  public record ProcessRef(String sandbox, String name, String process) {}

  public record ProcessView(
      String process,
      String command,
      String status,
      @OmitEmpty OptionalLong exit_code,
      @OmitEmpty Optional<String> reason,
      @OmitEmpty OptionalLong signal,
      String started_at,
      @OmitEmpty Optional<String> ended_at,
      long stdout_bytes,
      long stderr_bytes) {
    static ProcessView of(ProcessInfo p) {
      return new ProcessView(
          p.id(),
          p.command(),
          p.running() ? "running" : "ended",
          p.exitCode().isPresent()
              ? OptionalLong.of(p.exitCode().getAsInt())
              : OptionalLong.empty(),
          p.end().map(ProcessEnd::wireName),
          p.signal().isPresent() ? OptionalLong.of(p.signal().getAsInt()) : OptionalLong.empty(),
          p.startedAt().map(Timestamps::output).orElse(""),
          p.endedAt().map(Timestamps::output),
          p.stdoutBytes(),
          p.stderrBytes());
    }
  }

  public record ListOutput(List<ProcessView> items) {}

  public record OutputInput(
      String sandbox,
      String name,
      String process,
      OptionalLong stdout_offset,
      OptionalLong stderr_offset,
      OptionalLong max_bytes) {}

  public record OutputView(
      String stdout,
      String stderr,
      long stdout_next_offset,
      long stderr_next_offset,
      boolean more,
      String status) {}

  public record WaitInput(
      String sandbox, String name, String process, OptionalLong timeout_seconds) {}

  public record KillInput(String sandbox, String name, String process, Optional<String> signal) {}

  /** instance.exec with background=True: the process's id, at once. */
  static ExecResult startBackground(ProcessService processes, ExecInput in) {
    String id = processes.start(in.sandbox(), in.name(), InstanceCapabilities.request(in));
    return ExecResult.started(id);
  }

  public static List<CapabilityDefinition<?, ?>> definitions(ProcessService processes) {
    return List.of(
        new CapabilityDefinition<>(
            "instance.process.list",
            "List the background processes of an instance, running and ended.",
            List.of("background", "jobs", "ps"),
            InstanceRef.class,
            ListOutput.class,
            (subject, in) ->
                new ListOutput(
                    processes.list(in.sandbox(), in.name()).stream()
                        .map(ProcessView::of)
                        .toList())),
        new CapabilityDefinition<>(
            "instance.process.get",
            "Get a background process: status, exit code and why it ended.",
            List.of("background", "status", "exit code", "oom"),
            ProcessRef.class,
            ProcessView.class,
            (subject, in) -> ProcessView.of(processes.get(in.sandbox(), in.name(), in.process()))),
        new CapabilityDefinition<>(
            "instance.process.output",
            "Read a background process's stdout and stderr from byte offsets.",
            List.of("background", "logs", "tail", "offset"),
            OutputInput.class,
            OutputView.class,
            (subject, in) -> {
              ProcessService.Output o =
                  processes.output(
                      in.sandbox(),
                      in.name(),
                      in.process(),
                      in.stdout_offset().orElse(0),
                      in.stderr_offset().orElse(0),
                      in.max_bytes().orElse(0));
              boolean more =
                  o.stdoutNext() < o.process().stdoutBytes()
                      || o.stderrNext() < o.process().stderrBytes();
              return new OutputView(
                  o.stdout(),
                  o.stderr(),
                  o.stdoutNext(),
                  o.stderrNext(),
                  more,
                  o.process().running() ? "running" : "ended");
            }),
        new CapabilityDefinition<>(
            "instance.process.wait",
            "Wait until a background process ends, up to a timeout.",
            List.of("background", "join", "until done"),
            WaitInput.class,
            ProcessView.class,
            (subject, in) ->
                ProcessView.of(
                    processes.waitFor(
                        in.sandbox(), in.name(), in.process(), in.timeout_seconds().orElse(0)))),
        new CapabilityDefinition<>(
            "instance.process.kill",
            "Send a signal to a background process and its children.",
            List.of("background", "signal", "stop", "terminate"),
            KillInput.class,
            ProcessView.class,
            (subject, in) ->
                ProcessView.of(
                    processes.kill(
                        in.sandbox(), in.name(), in.process(), in.signal().orElse("")))));
  }
}
