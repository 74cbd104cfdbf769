package dev.agentcompute.incus;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.type.TypeReference;

/** {@code /1.0/instances} in the client's project (and, for creation, its target member). */
public final class Instances {

  private final Rest rest;
  private final Scope scope;

  Instances(Rest rest, Scope scope) {
    this.rest = rest;
    this.scope = scope;
  }

  /** Creates (and, if the spec says so, starts) an instance; waits for the operation. */
  public Operation create(InstanceSpec spec) {
    return createAsync(spec).await();
  }

  public PendingOperation createAsync(InstanceSpec spec) {
    return rest.async(scope, "POST", "/1.0/instances", spec, null);
  }

  /** Full view ({@code recursion=1}): config, devices, state and snapshots. */
  public Instance get(String name) {
    return rest.get(scope, path(name) + "?recursion=1", Instance.class);
  }

  /**
   * The instance without {@code state} and {@code snapshots}: its config, devices and {@code
   * status}, read from the database alone. {@link #get} asks LXC for the running state as well,
   * 20-50 ms against 6-13 ms for this on an idle daemon.
   */
  public Instance getBrief(String name) {
    return rest.get(scope, path(name), Instance.class);
  }

  /** The instance with its ETag, for a guarded {@link #update}. */
  public Tagged<Instance> getTagged(String name) {
    return rest.getTagged(scope, path(name), Instance.class);
  }

  /** All instances of the project with config and devices (no runtime state). */
  public List<Instance> list() {
    return rest.get(scope, "/1.0/instances?recursion=1", new TypeReference<List<Instance>>() {});
  }

  /**
   * The instances of every project in one request (config and devices, no runtime state; each names
   * its {@link Instance#project()}). Needs the server's {@code instances_all_projects} API.
   */
  public List<Instance> listAllProjects() {
    return rest.get(
        scope,
        "/1.0/instances?recursion=1&all-projects=true",
        new TypeReference<List<Instance>>() {});
  }

  /** All instances with runtime state and snapshots ({@code recursion=2}); slower. */
  public List<Instance> listWithState() {
    return rest.get(scope, "/1.0/instances?recursion=2", new TypeReference<List<Instance>>() {});
  }

  public Instance.State state(String name) {
    return rest.get(scope, path(name) + "/state", Instance.State.class);
  }

  /** Replaces the writable fields; {@code etag} (nullable) is sent as If-Match. */
  public void update(String name, InstancePut put, String etag) {
    rest.call(scope, "PUT", path(name), put, etag);
  }

  public void start(String name) {
    changeState(name, "start", -1, false).await();
  }

  public void stop(String name, boolean force) {
    changeState(name, "stop", -1, force).await();
  }

  public void restart(String name, boolean force) {
    changeState(name, "restart", -1, force).await();
  }

  /**
   * {@code PUT .../state}: action start, stop, restart, freeze or unfreeze; timeout in seconds (-1
   * = none).
   */
  public PendingOperation changeState(
      String name, String action, int timeoutSeconds, boolean force) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("action", action);
    body.put("timeout", timeoutSeconds);
    body.put("force", force);
    body.put("stateful", false);
    return rest.async(scope, "PUT", path(name) + "/state", body, null);
  }

  public void rename(String name, String newName) {
    rest.async(scope, "POST", path(name), Map.of("name", newName), null).await();
  }

  /** Deletes a stopped instance (see {@link #forceDelete} for a running one). */
  public void delete(String name) {
    rest.async(scope, "DELETE", path(name), null, null).await();
  }

  /** Stops the instance hard if it runs, then deletes it (snapshots go with it). */
  public void forceDelete(String name) {
    Instance.State state = state(name);
    if (!"Stopped".equalsIgnoreCase(state.status())) {
      try {
        stop(name, true);
      } catch (IncusException.Failed e) {
        // It may have stopped on its own in between; the delete below tells.
      }
    }
    delete(name);
  }

  /** Runs a command over websockets; see {@link ExecRequest} and {@link ExecResult}. */
  public ExecResult exec(String name, ExecRequest request) {
    return new ExecSession(rest, scope, name, request).run();
  }

  /** As {@link #exec(String, ExecRequest)}, with {@code listener} seeing the output as it comes. */
  public ExecResult exec(String name, ExecRequest request, ExecOutputListener listener) {
    return new ExecSession(rest, scope, name, request, listener).run();
  }

  /**
   * Starts a command and returns at once with its streams attached ({@link ExecStream}), for a
   * protocol spoken over its stdin and stdout. {@code request}'s stdin, if any, is written first
   * and its deadline bounds the stream's whole life: the command is killed when it passes. Close
   * the stream when done.
   */
  public ExecStream openExec(String name, ExecRequest request) {
    return ExecStream.open(rest, scope, name, request);
  }

  static String path(String name) {
    return "/1.0/instances/" + Scope.segment(name);
  }
}
