package dev.agentcompute.codemode.authz.rego;

import dev.agentcompute.codemode.authz.AccessRequest;
import dev.agentcompute.codemode.authz.Subject;
import java.util.Map;

/** Rego modules and requests shared by the authorizer tests. */
final class Policies {
  private Policies() {}

  static final String ALLOW = "data.codemode.authz.allow";

  /** alice may look records up, except the key "secret"; every decision kind the tests need. */
  static final String AUTHZ =
      """
      package codemode.authz

      default allow := false

      allow if {
        input.subject.id == "alice"
        input.capability.id == "records.entry.lookup"
        input.arguments.key != "secret"
      }

      # Discovery: everybody but mallory sees everything.
      default visible := false
      visible if input.subject.id != "mallory"

      # No default: undefined unless the subject is bob.
      maybe if input.subject.id == "bob"

      name := input.capability.name

      # A strict builtin error (division by zero) for every request.
      broken if 1 / count(input.arguments) > 0

      # Expensive on purpose: a million-element range.
      slow if count([x | some x in numbers.range(1, 1000000)]) > 0

      # Seconds of work: nine million iterations.
      slower if count([1 | some x in numbers.range(1, 3000); some y in numbers.range(1, 3000)]) > 0
      """;

  static Map<String, String> modules() {
    return Map.of("authz.rego", AUTHZ);
  }

  static AccessRequest execute(String subject, String key) {
    return new AccessRequest(
        AccessRequest.Kind.EXECUTE,
        new Subject(subject),
        "records.entry.lookup",
        "records.lookup",
        key == null ? Map.of() : Map.of("key", key));
  }

  static AccessRequest discover(String subject) {
    return new AccessRequest(
        AccessRequest.Kind.DISCOVER,
        new Subject(subject),
        "records.entry.lookup",
        "records.lookup",
        Map.of());
  }
}
