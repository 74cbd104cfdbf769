package dev.agentcompute.capabilities.it;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.adapter.sandbox.SandboxCapabilities;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.incus.IncusClient;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One IT's compute runtime against the real incusd, and the sandboxes it made there: registered
 * with {@code @RegisterExtension}, it deletes them (in the order they were made, a failure failing
 * the test after the runtime is closed) and closes the runtime, and the Incus client the test gave
 * it, after each test ({@link #perTest}) or after the class ({@link #perClass}).
 */
final class RuntimeFixture implements AfterEachCallback, AfterAllCallback {
  private final boolean perTest;
  private final List<String> created = new CopyOnWriteArrayList<>();
  private volatile ComputeRuntime runtime;
  private volatile IncusClient incus;
  private volatile List<CapabilityDefinition<?, ?>> caps;

  private RuntimeFixture(boolean perTest) {
    this.perTest = perTest;
  }

  /** Torn down after each test: for an instance field, a runtime started by the test. */
  static RuntimeFixture perTest() {
    return new RuntimeFixture(true);
  }

  /** Torn down after the class: for a static field, a runtime started in {@code @BeforeAll}. */
  static RuntimeFixture perClass() {
    return new RuntimeFixture(false);
  }

  /** Starts the runtime over the incusd's socket with {@code config}. */
  ComputeRuntime start(ComputeConfig config) {
    return started(ComputeRuntime.startIncus(config, IncusHarness.socket()));
  }

  /** Starts the runtime over {@code client} (e.g. one with a request observer), closed with it. */
  ComputeRuntime start(ComputeConfig config, IncusClient client) {
    incus = client;
    return started(ComputeRuntime.startIncus(config, client));
  }

  /** Takes {@code prepared}, a runtime the test built itself, to tear down with the rest. */
  ComputeRuntime use(ComputeRuntime prepared) {
    return started(prepared);
  }

  private ComputeRuntime started(ComputeRuntime started) {
    runtime = started;
    caps = started.capabilities();
    return started;
  }

  ComputeRuntime runtime() {
    return runtime;
  }

  List<CapabilityDefinition<?, ?>> capabilities() {
    return caps;
  }

  /** Calls a capability as {@code subject} through its typed handler. */
  <O> O call(String subject, String name, Record input) {
    return IncusHarness.call(caps, subject, name, input);
  }

  /** Calls a capability as {@code operator}. */
  <O> O call(String name, Record input) {
    return call("operator", name, input);
  }

  /**
   * Creates a sandbox named {@code prefix-<random>} as {@code operator} (TTL {@code ttlMinutes}, or
   * the server's default when empty), deleted at teardown; returns its name.
   */
  String sandbox(String prefix, OptionalLong ttlMinutes) {
    String name = IncusHarness.uniqueName(prefix);
    created(name);
    call(
        "sandbox.create",
        new SandboxCapabilities.CreateInput(
            Optional.of(name), Optional.empty(), ttlMinutes, Optional.empty()));
    return name;
  }

  /** Deletes the sandbox {@code name} at teardown (taken as made even if its creation failed). */
  String created(String name) {
    created.add(name);
    return name;
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (perTest) {
      tearDown();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (!perTest) {
      tearDown();
    }
  }

  private void tearDown() {
    ComputeRuntime made = runtime;
    if (made == null) {
      return;
    }
    try {
      for (String name : created) {
        new ComputeCalls(made).deleteSandbox(name);
      }
    } finally {
      runtime = null;
      caps = null;
      created.clear();
      made.close();
      IncusClient client = incus;
      incus = null;
      if (client != null) {
        client.close();
      }
    }
  }
}
