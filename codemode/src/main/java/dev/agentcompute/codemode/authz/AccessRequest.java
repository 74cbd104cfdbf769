package dev.agentcompute.codemode.authz;

import java.util.Map;
import java.util.Objects;

/**
 * One authorization question. {@link Kind#DISCOVER} is asked for every capability a search or
 * describe could reveal (arguments empty); {@link Kind#EXECUTE} before every dispatch with the
 * detached canonical arguments (strings, longs, booleans, finite doubles, lists, string-keyed maps;
 * absent optionals omitted). The two answers are independent.
 *
 * @param operation the stable capability id (policy identity)
 * @param name the dotted model-facing name
 * @param facts what the host knows about what the call names, beside the arguments (for example the
 *     sandbox and its owner): canonical values like the arguments, keyed by name; a Rego policy
 *     sees each as a top-level key of its input. Empty unless a host policy adds them ({@link
 *     #withFacts}); never taken from the caller.
 */
public record AccessRequest(
    Kind kind,
    Subject subject,
    String operation,
    String name,
    Map<String, Object> arguments,
    Map<String, Object> facts) {

  /** The keys of the Rego input a fact cannot take. */
  public static final java.util.Set<String> RESERVED =
      java.util.Set.of("subject", "capability", "arguments");

  /** A request without facts. */
  public AccessRequest(
      Kind kind, Subject subject, String operation, String name, Map<String, Object> arguments) {
    this(kind, subject, operation, name, arguments, Map.of());
  }

  /** This request with {@code more} facts added; a reserved key is refused. */
  public AccessRequest withFacts(Map<String, Object> more) {
    for (String key : more.keySet()) {
      if (RESERVED.contains(key)) {
        throw new IllegalArgumentException(
            "fact \"" + key + "\" would hide the request's own " + key);
      }
    }
    Map<String, Object> all = new java.util.LinkedHashMap<>(facts);
    all.putAll(more);
    return new AccessRequest(kind, subject, operation, name, arguments, all);
  }

  public enum Kind {
    DISCOVER,
    EXECUTE
  }

  public AccessRequest {
    Objects.requireNonNull(kind);
    Objects.requireNonNull(subject);
    Objects.requireNonNull(operation);
    Objects.requireNonNull(name);
    Objects.requireNonNull(arguments);
    facts = Map.copyOf(facts);
  }
}
