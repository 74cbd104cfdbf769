package dev.agentcompute.rego.compile;

/** OPA's compile error codes. */
final class Codes {
  private Codes() {}

  static final String PARSE = "rego_parse_error";
  static final String COMPILE = "rego_compile_error";
  static final String TYPE = "rego_type_error";
  static final String UNSAFE = "rego_unsafe_var_error";
  static final String RECURSION = "rego_recursion_error";
}
