package dev.agentcompute.server.compute;

import dev.agentcompute.codemode.ResourceItem;
import java.util.Map;
import java.util.Optional;

/**
 * The capability call a resource read stands for: reading {@code agentcompute://sandboxes/S} is
 * {@code sandbox.get(name=S)}, an instance is {@code instance.get}, the image catalogue {@code
 * image.list}, and listing the sandboxes {@code sandbox.list}. The policy is asked exactly what it
 * would be asked for that call. Capability documents are not calls (describe_api's discovery
 * decision governs them), nor are screenshots (their id was handed out by a desktop.screenshot call
 * that was itself authorized and audited).
 *
 * @param arguments the call's canonical arguments (absent optionals omitted)
 * @param sandbox the sandbox it acts on, for the audit line; empty if none
 */
record ResourceCall(String capability, Map<String, Object> arguments, String sandbox) {
  static final ResourceCall LIST_SANDBOXES = new ResourceCall("sandbox.list", Map.of(), "");

  ResourceCall {
    arguments = Map.copyOf(arguments);
  }

  /** The call reading {@code item} stands for, if it stands for one. */
  static Optional<ResourceCall> of(ResourceItem item) {
    var source = item.source();
    var v = item.variables();
    if (source.equals(AgentResources.IMAGES)) {
      return Optional.of(new ResourceCall("image.list", Map.of(), ""));
    }
    if (source.equals(AgentResources.SANDBOXES)) {
      return Optional.of(
          new ResourceCall("sandbox.get", Map.of("name", v.get("name")), v.get("name")));
    }
    if (source.equals(AgentResources.INSTANCES)) {
      return Optional.of(
          new ResourceCall(
              "instance.get",
              Map.of("sandbox", v.get("sandbox"), "name", v.get("name")),
              v.get("sandbox")));
    }
    return Optional.empty();
  }
}
