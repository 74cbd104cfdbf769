package dev.agentcompute.rego.conformance;

import java.util.List;
import java.util.Map;

/**
 * One case of OPA's compliance suite (fields as in OPA's {@code v1/test/cases/cases.go}); unknown
 * fields are ignored. {@code wantResult} null means the case expects an error.
 */
record ComplianceCase(
    String file,
    String note,
    String query,
    List<String> modules,
    Map<String, Object> data,
    Object input,
    boolean hasInput,
    String inputTerm,
    List<Map<String, Object>> wantResult,
    String wantErrorCode,
    String wantError,
    boolean sortBindings,
    boolean strictError) {

  @SuppressWarnings("unchecked")
  static ComplianceCase of(String file, Map<String, Object> m) {
    List<String> modules = m.get("modules") instanceof List<?> l ? (List<String>) l : List.of();
    return new ComplianceCase(
        file,
        String.valueOf(m.getOrDefault("note", "(no note)")),
        (String) m.get("query"),
        modules,
        m.get("data") instanceof Map<?, ?> d ? (Map<String, Object>) d : Map.of(),
        m.get("input"),
        m.containsKey("input"),
        m.get("input_term") == null ? null : String.valueOf(m.get("input_term")),
        m.get("want_result") instanceof List<?> w ? (List<Map<String, Object>>) w : null,
        (String) m.get("want_error_code"),
        m.get("want_error") == null ? null : String.valueOf(m.get("want_error")),
        Boolean.TRUE.equals(m.get("sort_bindings")),
        Boolean.TRUE.equals(m.get("strict_error")));
  }

  boolean wantsError() {
    return wantErrorCode != null || wantError != null;
  }
}
