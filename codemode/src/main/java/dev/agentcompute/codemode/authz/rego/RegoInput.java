package dev.agentcompute.codemode.authz.rego;

import dev.agentcompute.codemode.authz.AccessRequest;
import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.RegoString;
import dev.agentcompute.rego.value.RegoValue;
import dev.agentcompute.rego.value.Values;

/**
 * The Rego {@code input} for one request, exactly the shape of
 * docs/reference/rego.md#codemode-authorizer: {@code {"subject": {"id"}, "capability": {"id",
 * "name"}, "arguments": {...}}}, plus each of the request's facts as a key of its own (the server
 * adds {@code "sandbox": {"name", "owner"}}). Absent optional arguments are absent from the
 * canonical map and so from {@code input.arguments}.
 */
final class RegoInput {
  private RegoInput() {}

  static RegoValue of(AccessRequest request) {
    RegoObject subject = RegoObject.of("id", RegoString.of(request.subject().id()));
    RegoObject capability =
        new RegoObject.Builder(2)
            .put("id", RegoString.of(request.operation()))
            .put("name", RegoString.of(request.name()))
            .build();
    RegoObject.Builder input =
        new RegoObject.Builder(3 + request.facts().size())
            .put("subject", subject)
            .put("capability", capability)
            .put("arguments", Values.fromJava(request.arguments()));
    request.facts().forEach((key, value) -> input.put(key, Values.fromJava(value)));
    return input.build();
  }
}
