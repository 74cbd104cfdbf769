package dev.agentcompute.codemode;

/**
 * What a capability does, for people and clients (MCP ToolAnnotations semantics and defaults):
 * whether it only reads, whether its changes destroy something, whether repeating it changes
 * nothing more, and whether it reaches beyond the host's own systems. Destructive and idempotent
 * mean something only when readOnly is false. Hints are descriptive only: no policy, confirmation
 * or dispatch decision reads them (docs/reference/policy.md#hints).
 *
 * @param readOnly the capability changes nothing (default false)
 * @param destructive its changes may destroy or overwrite something (default true)
 * @param idempotent calling it again with the same arguments changes nothing more (default false)
 * @param openWorld it interacts with systems beyond the host's own (default true)
 */
public record Hints(boolean readOnly, boolean destructive, boolean idempotent, boolean openWorld) {

  private static final Hints DEFAULTS = new Hints(false, true, false, true);

  /** MCP's defaults: not read-only, destructive, not idempotent, open world. */
  public static Hints defaults() {
    return DEFAULTS;
  }

  public Hints withReadOnly(boolean v) {
    return new Hints(v, destructive, idempotent, openWorld);
  }

  public Hints withDestructive(boolean v) {
    return new Hints(readOnly, v, idempotent, openWorld);
  }

  public Hints withIdempotent(boolean v) {
    return new Hints(readOnly, destructive, v, openWorld);
  }

  public Hints withOpenWorld(boolean v) {
    return new Hints(readOnly, destructive, idempotent, v);
  }
}
