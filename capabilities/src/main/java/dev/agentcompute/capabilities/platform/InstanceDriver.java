package dev.agentcompute.capabilities.platform;

import dev.agentcompute.capabilities.model.CommandStream;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.ExecRequest;
import dev.agentcompute.capabilities.model.ExecResult;
import dev.agentcompute.capabilities.model.InstanceAction;
import dev.agentcompute.capabilities.model.InstancePlan;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The machines of a sandbox: lifecycle, commands and files. */
public interface InstanceDriver {
  List<SandboxInstance> list(Sandbox sandbox);

  /**
   * How many instances the sandbox has, from its records alone where the platform has them (the
   * per-identity cap counts every sandbox of an identity before a creation, and must not wake a Mac
   * host to do so).
   */
  default int count(Sandbox sandbox) {
    return list(sandbox).size();
  }

  Optional<SandboxInstance> find(Sandbox sandbox, String name);

  /**
   * The instance as {@link #find} has it, but without what only its running state tells (its NICs'
   * observed addresses; its snapshots): enough to act on it (run a command in it). Platforms whose
   * full read costs more override this.
   */
  default Optional<SandboxInstance> findBrief(Sandbox sandbox, String name) {
    return find(sandbox, name);
  }

  /**
   * How many instances each of {@code sandboxes} has, by sandbox name. Platforms that can answer
   * for many sandboxes at once override this, so {@code sandbox.list} costs a constant number of
   * requests however many sandboxes there are.
   */
  default Map<String, Integer> count(List<Sandbox> sandboxes) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (Sandbox sandbox : sandboxes) {
      counts.put(sandbox.name(), count(sandbox));
    }
    return counts;
  }

  /**
   * Starts creating an instance (the service holds the sandbox's gate); the returned handle is
   * finished outside it.
   */
  PendingInstance accept(Sandbox sandbox, InstancePlan plan);

  /** Waits for creation (and start) to finish within the plan's budget. */
  SandboxInstance finish(PendingInstance pending);

  void delete(Sandbox sandbox, String name);

  /** Starts, stops or restarts, waiting until the state is reached; returns the status. */
  String changeState(Sandbox sandbox, String name, InstanceAction action, boolean force);

  /**
   * Runs {@code request} (already checked by the service) and returns its result unchanged to the
   * agent (docs/reference/exec-path.md).
   */
  ExecResult exec(Sandbox sandbox, String name, ExecRequest request);

  /** Reads at most {@code limit + 1} bytes of a regular file. */
  byte[] readFile(Sandbox sandbox, String name, String path, int limit);

  void writeFile(Sandbox sandbox, String name, String path, byte[] content, Integer mode);

  /*
   * What the Windows desktop needs (docs/reference/capabilities.md#desktops): its Driver proxy kept attached, and the screenshot
   * files it writes read and removed through the file API. Windows guests exist only where these
   * are implemented (Incus); other platforms refuse them.
   */

  /**
   * Starts a command kept attached ({@link CommandStream}); of {@code request} only argv, env, cwd
   * and user apply.
   */
  default CommandStream openStream(Sandbox sandbox, String name, ExecRequest request) {
    throw Errors.unsupportedOn(sandbox.platform());
  }

  /** Like {@link #readFile}, but empty when nothing is at {@code path}. */
  default Optional<byte[]> readFileIfPresent(Sandbox sandbox, String name, String path, int limit) {
    throw Errors.unsupportedOn(sandbox.platform());
  }

  /** Deletes a file; nothing at {@code path} is no error. */
  default void deleteFile(Sandbox sandbox, String name, String path) {
    throw Errors.unsupportedOn(sandbox.platform());
  }

  /**
   * Where the Cua Driver CLI lives in this platform's guests
   * (docs/reference/capabilities.md#desktops).
   */
  default String cuaDriverPath() {
    return "/usr/local/bin/cua-driver";
  }

  /** The home of the user exec runs as on macOS guests ({@code lume}): the Driver's directory. */
  default String macGuestHome() {
    return "/Users/lume";
  }

  /** A creation the platform has accepted but not finished. */
  interface PendingInstance {
    String sandbox();

    String name();
  }
}
