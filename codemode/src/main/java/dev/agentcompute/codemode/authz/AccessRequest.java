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
 */
public record AccessRequest(
    Kind kind, Subject subject, String operation, String name, Map<String, Object> arguments) {

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
  }
}
