package dev.agentcompute.incus;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** An Incus background operation as the server reports it. */
public record Operation(
    String id,
    @JsonProperty("class") String operationClass,
    String description,
    Instant createdAt,
    Instant updatedAt,
    String status,
    int statusCode,
    Map<String, List<String>> resources,
    Map<String, Object> metadata,
    boolean mayCancel,
    String err,
    String location) {

  public Operation {
    resources = resources == null ? Map.of() : resources;
    metadata = metadata == null ? Map.of() : metadata;
  }

  /** Success (200), Failure (400) and Cancelled (401) are final; the rest are still moving. */
  public boolean done() {
    return statusCode == 200 || statusCode == 400 || statusCode == 401;
  }

  public boolean succeeded() {
    return statusCode == 200;
  }
}
