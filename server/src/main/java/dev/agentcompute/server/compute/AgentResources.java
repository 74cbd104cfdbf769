package dev.agentcompute.server.compute;

import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.model.AgentFacingException;
import dev.agentcompute.capabilities.screenshots.ScreenshotStore;
import dev.agentcompute.codemode.AgentError;
import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.ResourceBody;
import dev.agentcompute.codemode.ResourceDescription;
import dev.agentcompute.codemode.ResourceItem;
import dev.agentcompute.codemode.ResourceSource;
import dev.agentcompute.codemode.Resources;
import dev.agentcompute.codemode.Tokens;
import dev.agentcompute.codemode.authz.AccessDenied;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.mcp.CodeModeMcp;
import io.modelcontextprotocol.json.McpJsonDefaults;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * agentcompute's MCP resources (docs/reference/policy.md#agentcomputes-resources): the image
 * catalogue, one describe_api document per capability, sandboxes and instances, whose JSON bodies
 * are the values sandbox.get and instance.get return, and screenshots (the PNG a desktop.screenshot
 * URL serves). Built once; every read runs on the compute generation in force, so a reload changes
 * what they show, never breaks them. Who sees what is {@link AgentResourcePolicy}'s.
 */
final class AgentResources {
  static final String JSON = "application/json";
  static final ResourceDescription IMAGES =
      ResourceDescription.resource("agentcompute://images", "images")
          .withTitle("Image catalogue")
          .withDescription("The images sandboxes can use (image.list)")
          .withMimeType(JSON);
  static final ResourceDescription CAPABILITIES =
      ResourceDescription.template("agentcompute://capabilities/{name}", "capability")
          .withDescription("One capability as describe_api shows it")
          .withMimeType(JSON);
  static final ResourceDescription SANDBOXES =
      ResourceDescription.template("agentcompute://sandboxes/{name}", "sandbox")
          .withDescription("One sandbox with its instances and networks (sandbox.get)")
          .withMimeType(JSON);
  static final ResourceDescription INSTANCES =
      ResourceDescription.template(
              "agentcompute://sandboxes/{sandbox}/instances/{name}", "instance")
          .withDescription("One instance of a sandbox (instance.get)")
          .withMimeType(JSON);

  static final ResourceDescription SCREENSHOTS =
      ResourceDescription.template("agentcompute://screenshots/{id}", "screenshot")
          .withDescription("A screenshot desktop.screenshot published (read by the id in its URL)")
          .withMimeType("image/png");

  private AgentResources() {}

  static Resources build(ComputeGenerations compute, Tokens tokens) {
    ResourceGate gate =
        new ResourceGate(
            () -> compute.onCurrent(g -> g.policy()),
            () -> compute.onCurrent(g -> g.config().sandbox().confirm()),
            compute.audit(),
            InstantSource.system());
    try {
      return Resources.builder(new AgentResourcePolicy(compute, gate))
          .tokens(tokens)
          .source(
              ResourceSource.of(IMAGES, (ctx, subject, item) -> call(compute, gate, subject, item)))
          .source(
              ResourceSource.template(
                  CAPABILITIES,
                  (ctx, subject) ->
                      compute.onCurrent(
                          g ->
                              g.runtime().capabilities().stream()
                                  .map(
                                      d -> item(CAPABILITIES, "capabilities/" + d.name(), d.name()))
                                  .toList()),
                  (ctx, subject, item) ->
                      compute.onCurrent(
                          g -> describe(g, ctx, subject, item.variables().get("name")))))
          .source(
              ResourceSource.template(
                  SANDBOXES,
                  (ctx, subject) -> sandboxItems(compute, gate, ctx, subject),
                  (ctx, subject, item) -> call(compute, gate, subject, item)))
          .source(
              ResourceSource.template(
                  INSTANCES,
                  (ctx, subject) -> List.of(),
                  (ctx, subject, item) -> call(compute, gate, subject, item)))
          .source(
              ResourceSource.template(
                  SCREENSHOTS,
                  // Not listed: an id is known only to whoever took the screenshot.
                  (ctx, subject) -> List.of(),
                  (ctx, subject, item) ->
                      new ResourceBody.Blob(
                          screenshot(compute, item.variables().get("id"))
                              .orElseThrow(() -> new AgentError("screenshot expired"))
                              .png())))
          .build();
    } catch (CodeModeException e) {
      throw new IllegalStateException("agentcompute's resources are invalid: " + e.getMessage(), e);
    }
  }

  /** The stored screenshot of that id, if screenshots are configured and it has not expired. */
  static Optional<ScreenshotStore.Screenshot> screenshot(ComputeGenerations compute, String id) {
    return compute.screenshots().flatMap(store -> store.find(id));
  }

  private static ResourceItem item(ResourceDescription template, String path, String name) {
    return ResourceItem.of(template, "agentcompute://" + path, name);
  }

  /** The sandboxes, listed only when the caller may call sandbox.list (else none). */
  private static List<ResourceItem> sandboxItems(
      ComputeGenerations compute,
      ResourceGate gate,
      dev.agentcompute.codemode.Context ctx,
      Subject subject)
      throws Exception {
    try {
      gate.check(ctx, subject, ResourceCall.LIST_SANDBOXES);
    } catch (AccessDenied denied) {
      return List.of();
    }
    Object listed =
        gate.run(
            subject,
            ResourceCall.LIST_SANDBOXES,
            () -> invoke(compute, "sandbox.list", subject, Map.of()));
    if (!(listed
        instanceof
        dev.agentcompute.capabilities.adapter.sandbox.SandboxCapabilities.ListOutput out)) {
      return List.of();
    }
    return out.items().stream()
        .map(i -> item(SANDBOXES, "sandboxes/" + i.name(), i.name()))
        .toList();
  }

  private static ResourceBody describe(
      ComputeGeneration g, dev.agentcompute.codemode.Context ctx, Subject subject, String name) {
    try {
      return json(CodeModeMcp.describeJson(g.codeMode().describe(ctx, subject, name)));
    } catch (CodeModeException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  /**
   * The capability's result as JSON, exactly the record its handler returns; audited as that call
   * (the policy was asked by {@link AgentResourcePolicy#read} before).
   */
  private static ResourceBody call(
      ComputeGenerations compute, ResourceGate gate, Subject subject, ResourceItem item)
      throws Exception {
    ResourceCall call = ResourceCall.of(item).orElseThrow();
    return json(
        gate.run(
            subject, call, () -> invoke(compute, call.capability(), subject, item.variables())));
  }

  private static Object invoke(
      ComputeGenerations compute, String capability, Subject subject, Map<String, String> args)
      throws Exception {
    CapabilityDefinition<?, ?> definition =
        compute.onCurrent(
            g ->
                g.runtime().capabilities().stream()
                    .filter(d -> d.name().equals(capability))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no capability " + capability)));
    Record input = input(definition.input(), args);
    try {
      return compute.onCurrent(g -> definition.invoke(subject.id(), input));
    } catch (AgentFacingException e) {
      throw new AgentError(e.getMessage(), e);
    }
  }

  /** The input record with {@code args} as its string components, every other one empty. */
  static Record input(Class<? extends Record> type, Map<String, String> args)
      throws ReflectiveOperationException {
    RecordComponent[] components = type.getRecordComponents();
    Object[] values = new Object[components.length];
    Class<?>[] types = new Class<?>[components.length];
    for (int i = 0; i < components.length; i++) {
      types[i] = components[i].getType();
      String value = args.get(components[i].getName());
      values[i] =
          types[i] == String.class
              ? (value == null ? "" : value)
              : types[i] == Optional.class ? Optional.ofNullable(value) : null;
    }
    return type.getDeclaredConstructor(types).newInstance(values);
  }

  private static ResourceBody json(Object value) {
    try {
      return new ResourceBody.Text(McpJsonDefaults.getMapper().writeValueAsString(value));
    } catch (IOException e) {
      throw new IllegalStateException("cannot serialise a resource body", e);
    }
  }
}
