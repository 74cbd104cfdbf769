package dev.agentcompute.codemode.authz.rego;

/**
 * Whether the Rego evaluator ({@code dev.agentcompute:rego}) is present. codemode depends on it
 * optionally, so a host that never builds a {@link RegoAuthorizer} does not carry it; one that does
 * gets this error instead of a {@link NoClassDefFoundError} naming an internal class.
 */
final class RegoRuntime {

  static final String MISSING =
      "rego: RegoAuthorizer needs the artifact dev.agentcompute:rego (the same version as"
          + " codemode) on the class path; codemode's dependency on it is optional, so add it to"
          + " your project's dependencies";

  private RegoRuntime() {}

  static void require() throws RegoPolicyError {
    try {
      Class.forName("dev.agentcompute.rego.Rego", false, RegoRuntime.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new RegoPolicyError(MISSING, e);
    }
  }
}
