package dev.agentcompute.capabilities.mac;

import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.platform.SandboxStore;
import java.util.List;
import java.util.Optional;

/** Mac sandboxes are sidecars only (no Lume call), deleted with exactly the VMs they map. */
final class MacSandboxStore implements SandboxStore {
  private final Sidecars sidecars;
  private final MacVms vms;
  private final String hostName;

  MacSandboxStore(Sidecars sidecars, MacVms vms, String hostName) {
    this.sidecars = sidecars;
    this.vms = vms;
    this.hostName = hostName;
  }

  @Override
  public Optional<Sandbox> find(String name) {
    return sidecars.read(name).map(Sidecar::sandbox);
  }

  @Override
  public List<Sandbox> list() {
    return sidecars.list().stream().map(Sidecar::sandbox).toList();
  }

  @Override
  public void create(Sandbox sandbox) {
    if (sidecars.read(sandbox.name()).isPresent()) {
      throw new BackendException(
          BackendException.Kind.CONFLICT, "sidecar of " + sandbox.name() + " exists");
    }
    sidecars.write(Sidecar.of(sandbox, hostName, java.util.Map.of()));
  }

  @Override
  public void write(Sandbox sandbox) {
    Sidecar current =
        sidecars
            .read(sandbox.name())
            .orElseThrow(
                () ->
                    new BackendException(
                        BackendException.Kind.NOT_FOUND, "no sidecar for " + sandbox.name()));
    sidecars.write(current.withSandbox(sandbox));
  }

  @Override
  public void delete(String name) {
    Sidecar record =
        sidecars
            .read(name)
            .orElseThrow(
                () ->
                    new BackendException(
                        BackendException.Kind.NOT_FOUND, "no sidecar for " + name));
    for (Sidecar.Instance instance : record.instances().values()) {
      vms.deleteMapped(instance);
    }
    sidecars.delete(name);
  }
}
