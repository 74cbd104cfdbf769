package dev.agentcompute.capabilities.adapter.sandbox;

import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.adapter.Views.Empty;
import dev.agentcompute.capabilities.adapter.Views.InstanceItem;
import dev.agentcompute.capabilities.adapter.Views.NetworkView;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.Timestamps;
import dev.agentcompute.capabilities.model.TtlPolicy;
import dev.agentcompute.capabilities.service.SandboxService;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** sandbox.create/list/get/extend/pin/delete (docs/reference/capabilities.md#sandboxes). */
public final class SandboxCapabilities {
  private SandboxCapabilities() {}

  public record CreateInput(
      Optional<String> name,
      Optional<String> platform,
      OptionalLong ttl_minutes,
      Optional<Boolean> pinned) {}

  public record CreateOutput(
      String name,
      String platform,
      String expires_at,
      boolean pinned,
      String pinned_by,
      NetworkView network) {}

  public record ListInput() {}

  public record ListItem(
      String name,
      String platform,
      String created_at,
      String expires_at,
      boolean pinned,
      String pinned_by,
      long instances) {}

  public record ListOutput(List<ListItem> items) {}

  public record NameInput(String name) {}

  public record GetOutput(
      String name,
      String platform,
      String created_at,
      String expires_at,
      boolean pinned,
      String pinned_by,
      List<InstanceItem> instances,
      List<NetworkView> networks) {}

  public record ExtendInput(String name, long ttl_minutes) {}

  /** {@code note} says what was set and why (ours; empty never: it always explains). */
  public record ExtendOutput(String expires_at, String note) {}

  public record PinInput(String name, boolean pinned) {}

  public record PinOutput(boolean pinned, String pinned_by) {}

  public static List<CapabilityDefinition<?, ?>> definitions(SandboxService sandboxes) {
    return List.of(
        new CapabilityDefinition<>(
            "sandbox.create",
            "Create a sandbox and its default NAT network. Operator-only pinned=True ignores TTL until unpinned or "
                + "deleted; TTL limits still apply.",
            List.of("new sandbox", "project", "ttl"),
            CreateInput.class,
            CreateOutput.class,
            (subject, in) -> create(sandboxes, subject, in)),
        new CapabilityDefinition<>(
            "sandbox.list",
            "List sandboxes with expiry and instance counts.",
            List.of("sandboxes"),
            ListInput.class,
            ListOutput.class,
            (subject, in) ->
                new ListOutput(
                    sandboxes.list().stream()
                        .filter(l -> sandboxes.visibleTo(subject, l.sandbox()))
                        .map(
                            l ->
                                new ListItem(
                                    l.sandbox().name(),
                                    l.sandbox().platform(),
                                    Timestamps.output(l.sandbox().createdAt()),
                                    Timestamps.output(l.sandbox().expiresAt()),
                                    l.sandbox().pinned(),
                                    l.sandbox().pinnedBy(),
                                    l.instances()))
                        .toList())),
        new CapabilityDefinition<>(
            "sandbox.get",
            "Get one sandbox with its instances and networks.",
            List.of("sandbox details"),
            NameInput.class,
            GetOutput.class,
            (subject, in) -> {
              SandboxService.Detail d = sandboxes.get(subject, in.name());
              Sandbox s = d.sandbox();
              return new GetOutput(
                  s.name(),
                  s.platform(),
                  Timestamps.output(s.createdAt()),
                  Timestamps.output(s.expiresAt()),
                  s.pinned(),
                  s.pinnedBy(),
                  d.instances().stream().map(InstanceItem::of).toList(),
                  d.networks().stream().map(NetworkView::of).toList());
            }),
        new CapabilityDefinition<>(
            "sandbox.extend",
            "Extend a sandbox TTL from now within the configured limit. Pinned sandboxes ignore TTL until unpinned.",
            List.of("ttl", "expiry", "renew"),
            ExtendInput.class,
            ExtendOutput.class,
            (subject, in) -> {
              SandboxService.Extension e =
                  sandboxes.extend(in.name(), TtlPolicy.checkArgument(in.ttl_minutes()));
              String at = Timestamps.output(e.expiresAt());
              return new ExtendOutput(
                  at,
                  e.kept()
                      ? "kept the expiry at "
                          + at
                          + ": it is later than "
                          + in.ttl_minutes()
                          + " minutes from now, and extend never shortens a sandbox's life"
                      : "expires at " + at + ", " + in.ttl_minutes() + " minutes from now");
            }),
        new CapabilityDefinition<>(
            "sandbox.pin",
            "Pin or unpin a sandbox; requires an identity in sandbox.pin_identities. Unpinning restores its existing "
                + "expiry and can cause deletion on the next scan. Pins retain machines, not reusable images: use "
                + "recipes under images/ for those.",
            List.of("keep", "retain"),
            PinInput.class,
            PinOutput.class,
            (subject, in) -> {
              Sandbox s = sandboxes.pin(subject, in.name(), in.pinned());
              return new PinOutput(s.pinned(), s.pinnedBy());
            }),
        new CapabilityDefinition<>(
            "sandbox.delete",
            "Delete a sandbox and every resource inside it.",
            List.of("remove sandbox", "destroy"),
            NameInput.class,
            Empty.class,
            (subject, in) -> {
              sandboxes.delete(in.name());
              return new Empty();
            }));
  }

  private static CreateOutput create(SandboxService sandboxes, String subject, CreateInput in) {
    String platform = in.platform().orElse("");
    if (!platform.isEmpty() && !platform.equals("incus") && !platform.equals("mac")) {
      throw Errors.of("unsupported platform \"%s\"", platform);
    }
    long ttl = 0;
    if (in.ttl_minutes().isPresent()) {
      ttl = TtlPolicy.checkArgument(in.ttl_minutes().getAsLong());
    }
    SandboxService.Created created =
        sandboxes.create(subject, in.name().orElse(""), platform, ttl, in.pinned().orElse(false));
    Sandbox s = created.sandbox();
    return new CreateOutput(
        s.name(),
        s.platform(),
        Timestamps.output(s.expiresAt()),
        s.pinned(),
        s.pinnedBy(),
        created.network().map(NetworkView::of).orElse(NetworkView.empty()));
  }
}
