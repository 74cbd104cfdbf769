package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.model.ExecRequest;
import dev.agentcompute.capabilities.model.ExecResult;
import dev.agentcompute.capabilities.model.InstanceAction;
import dev.agentcompute.capabilities.model.InstancePlan;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.platform.InstanceDriver;
import java.util.List;
import java.util.Optional;

/**
 * An instance driver for tests that needs only a few of the port's methods: every other one throws
 * {@link UnsupportedOperationException}, so a test that reaches one fails saying which.
 */
abstract class UnsupportedInstances implements InstanceDriver {
  @Override
  public List<SandboxInstance> list(Sandbox sandbox) {
    throw new UnsupportedOperationException("list");
  }

  @Override
  public Optional<SandboxInstance> find(Sandbox sandbox, String name) {
    throw new UnsupportedOperationException("find");
  }

  @Override
  public InstanceDriver.PendingInstance accept(Sandbox sandbox, InstancePlan plan) {
    throw new UnsupportedOperationException("accept");
  }

  @Override
  public SandboxInstance finish(InstanceDriver.PendingInstance pending) {
    throw new UnsupportedOperationException("finish");
  }

  @Override
  public void delete(Sandbox sandbox, String name) {
    throw new UnsupportedOperationException("delete");
  }

  @Override
  public String changeState(Sandbox sandbox, String name, InstanceAction action, boolean force) {
    throw new UnsupportedOperationException("changeState");
  }

  @Override
  public ExecResult exec(Sandbox sandbox, String name, ExecRequest request) {
    throw new UnsupportedOperationException("exec");
  }

  @Override
  public byte[] readFile(Sandbox sandbox, String name, String path, int limit) {
    throw new UnsupportedOperationException("readFile");
  }

  @Override
  public void writeFile(Sandbox sandbox, String name, String path, byte[] content, Integer mode) {
    throw new UnsupportedOperationException("writeFile");
  }
}
