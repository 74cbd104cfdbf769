package dev.agentcompute.codemode;

/**
 * Whether every call of a capability needs a person's confirmation before its handler runs
 * (docs/reference/policy.md#confirmations). A host can also require it by capability id ({@link
 * Options.Draft#requireConfirmation}) and a policy per call ({@link
 * dev.agentcompute.codemode.authz.ConfirmationRequired}).
 */
public enum Confirmation {
  /** Calls run once authorized (the default). */
  NOT_REQUIRED,
  /** Each call runs only after a person confirmed it: by elicitation or a continuation token. */
  REQUIRED
}
