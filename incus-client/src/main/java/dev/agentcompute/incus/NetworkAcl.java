package dev.agentcompute.incus;

import java.util.List;
import java.util.Map;

/** A network ACL: ordered ingress and egress rules plus config. */
public record NetworkAcl(
    String name,
    String description,
    List<Rule> ingress,
    List<Rule> egress,
    Map<String, String> config,
    List<String> usedBy,
    String project) {

  public NetworkAcl {
    ingress = ingress == null ? List.of() : ingress;
    egress = egress == null ? List.of() : egress;
    config = config == null ? Map.of() : config;
    usedBy = usedBy == null ? List.of() : usedBy;
  }

  public static NetworkAcl of(String name, String description, Map<String, String> config) {
    return new NetworkAcl(name, description, List.of(), List.of(), config, null, null);
  }

  public NetworkAcl withRules(List<Rule> newIngress, List<Rule> newEgress) {
    return new NetworkAcl(name, description, newIngress, newEgress, config, usedBy, project);
  }

  /**
   * One rule; empty fields are omitted (mean "any"). {@code state} is enabled, disabled or logged.
   */
  public record Rule(
      String action,
      String source,
      String destination,
      String protocol,
      String sourcePort,
      String destinationPort,
      String icmpType,
      String icmpCode,
      String description,
      String state) {

    public static Rule of(
        String action,
        String source,
        String destination,
        String protocol,
        String destinationPort,
        String description) {
      return new Rule(
          action,
          blankToNull(source),
          blankToNull(destination),
          blankToNull(protocol),
          null,
          blankToNull(destinationPort),
          null,
          null,
          description,
          "enabled");
    }

    private static String blankToNull(String s) {
      return s == null || s.isEmpty() ? null : s;
    }
  }
}
