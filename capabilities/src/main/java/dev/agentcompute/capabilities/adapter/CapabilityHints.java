package dev.agentcompute.capabilities.adapter;

import dev.agentcompute.codemode.Hints;
import java.util.Map;
import java.util.Optional;

/**
 * The MCP-style hints of every agentcompute capability (docs/reference/capabilities.md#hints), in
 * one table so they are read side by side. Hints are descriptive only: nothing in authorization,
 * confirmation or dispatch reads them. "Open world" marks calls whose effects reach beyond our own
 * records: a command or a desktop action inside a guest may talk to anything the guest can reach.
 */
public final class CapabilityHints {
  private static final Hints READ = new Hints(true, false, true, false);
  private static final Hints ADD = new Hints(false, false, false, false);
  private static final Hints ADD_IDEMPOTENT = new Hints(false, false, true, false);
  private static final Hints REMOVE = new Hints(false, true, true, false);
  private static final Hints CHANGE = new Hints(false, true, false, false);
  private static final Hints GUEST_ACTION = new Hints(false, true, false, true);

  private static final Map<String, Hints> BY_NAME =
      Map.ofEntries(
          Map.entry("sandbox.create", ADD),
          Map.entry("sandbox.list", READ),
          Map.entry("sandbox.get", READ),
          Map.entry("sandbox.extend", ADD),
          Map.entry("sandbox.pin", ADD_IDEMPOTENT),
          Map.entry("sandbox.delete", REMOVE),
          Map.entry("sandbox.limits", READ),
          Map.entry("image.list", READ),
          Map.entry("instance.create", ADD),
          Map.entry("instance.list", READ),
          Map.entry("instance.get", READ),
          Map.entry("instance.delete", REMOVE),
          Map.entry("instance.exec", GUEST_ACTION),
          Map.entry("instance.start", ADD_IDEMPOTENT),
          Map.entry("instance.stop", REMOVE),
          Map.entry("instance.restart", CHANGE),
          Map.entry("instance.wait", READ),
          Map.entry("instance.file.read", READ),
          Map.entry("instance.file.write", REMOVE),
          Map.entry("instance.file.list", READ),
          Map.entry("instance.file.stat", READ),
          Map.entry("instance.file.upload_url", ADD),
          Map.entry("instance.file.download_url", ADD),
          Map.entry("instance.process.list", READ),
          Map.entry("instance.process.get", READ),
          Map.entry("instance.process.output", READ),
          Map.entry("instance.process.wait", READ),
          Map.entry("instance.process.kill", REMOVE),
          Map.entry("instance.snapshot.create", ADD),
          Map.entry("instance.snapshot.restore", REMOVE),
          Map.entry("instance.snapshot.delete", REMOVE),
          Map.entry("instance.snapshot.list", READ),
          Map.entry("instance.publish", ADD),
          Map.entry("net.create", ADD),
          Map.entry("net.list", READ),
          Map.entry("net.get", READ),
          Map.entry("net.delete", REMOVE),
          Map.entry("net.attach", ADD),
          Map.entry("net.detach", REMOVE),
          Map.entry("net.impair", REMOVE),
          Map.entry("net.peer", ADD),
          Map.entry("net.acl.add", ADD),
          Map.entry("net.acl.remove", REMOVE),
          Map.entry("net.forward", ADD),
          Map.entry("net.inspect", READ),
          Map.entry("desktop.info", READ),
          Map.entry("desktop.screenshot", READ),
          Map.entry("desktop.enable", ADD_IDEMPOTENT),
          Map.entry("desktop.call", GUEST_ACTION));

  private CapabilityHints() {}

  /** The capability's hints; a name missing from the table gets MCP's cautious defaults. */
  public static Hints of(String capability) {
    return find(capability).orElse(Hints.defaults());
  }

  /** The table's entry, if the capability has one. */
  public static Optional<Hints> find(String capability) {
    return Optional.ofNullable(BY_NAME.get(capability));
  }
}
