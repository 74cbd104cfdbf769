package dev.agentcompute.codemode;

import dev.agentcompute.codemode.catalog.Catalog;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects registrations for one {@link Server}. Single-threaded and one-shot: the first {@link
 * #build()} closes it, even when it fails. Capability problems are recorded and reported together
 * by {@code build}; {@link #register} itself only fails for a closed builder.
 */
public final class Builder {

  private final Options options;
  private final List<Capability<?, ?>> registrations = new ArrayList<>();
  private boolean closed;

  Builder(Options options) {
    this.options = options == null ? new Options(null, null, null) : options;
  }

  /** Adds a capability; its problems surface at {@link #build()}. */
  public Builder register(Capability<?, ?> capability) {
    if (closed) {
      throw new IllegalStateException("CodeMode builder is already closed; create a new builder");
    }
    if (capability == null) {
      throw new NullPointerException("capability");
    }
    registrations.add(capability);
    return this;
  }

  /**
   * Validates everything, builds the immutable server and probes the worker entry. Fails with
   * {@link Failure#INVALID_REGISTRATION} listing every problem.
   */
  public Server build() throws CodeModeException {
    if (closed) {
      throw CodeModeException.invalidRegistration("builder is already closed");
    }
    closed = true;
    if (CodeMode.isWorker()) {
      throw CodeModeException.invalidRegistration(WORKER_MODE_BUILD);
    }
    List<String> problems = new ArrayList<>();
    if (options.policy() == null) {
      problems.add(NO_POLICY);
    }
    Limits limits = resolve(options.limits(), problems);
    Catalog catalog =
        Catalog.build(
            registrations,
            options.disabledCapabilities(),
            options.confirmationRequired(),
            problems);
    if (!problems.isEmpty()) {
      throw CodeModeException.invalidRegistration(problems);
    }
    return Server.start(catalog, options, limits);
  }

  static final String NO_POLICY =
      "Options have no authorizer: set Options.builder().authorizer(...) or .policy(...)"
          + " (Authorizer.allowAll() allows every call); there is no default";

  static final String WORKER_MODE_BUILD =
      "build() ran in a CodeMode worker process ("
          + CodeMode.WORKER_MARKER
          + "=1 is set); workers start dev.agentcompute.codemode.worker.WorkerMain and never build a"
          + " server: remove "
          + CodeMode.WORKER_MARKER
          + " from the host's environment, or, if a launcher of your own starts workers through your"
          + " main, call CodeMode.serveWorkerAndExit() as its first statement";

  private static Limits resolve(Limits requested, List<String> problems) {
    // Negative values are reported before defaulting: zero means default, negative is an error.
    List<String> negative = requested.negativeProblems();
    problems.addAll(negative);
    Limits resolved = requested.resolve();
    if (negative.isEmpty()) {
      problems.addAll(resolved.problems());
    }
    return resolved;
  }
}
