package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.AclDirection;
import dev.agentcompute.capabilities.model.AclProtocol;
import dev.agentcompute.capabilities.model.AclRuleSpec;
import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.BackendException.Kind;
import dev.agentcompute.capabilities.model.BaselineRules;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.capabilities.model.Ipv4Cidr;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.incus.NetworkAcl;
import dev.agentcompute.incus.Tagged;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The two Incus ACLs of every OVN network (docs/reference/capabilities.md#netacladd-netaclremove):
 * the per-project {@code baseline} with one egress drop per protected range, never modified once it
 * exists, and the per-network agent ACL that {@code net.acl.*} edit. Rule ids live in the rule
 * descriptions ({@code agentcompute:id=<id>}).
 */
final class OvnAcls {
  static final String BASELINE = "baseline";
  static final String ID_PREFIX = "agentcompute:id=";

  private final List<Ipv4Cidr> protectedRanges;
  private final SecureRandom random = new SecureRandom();

  OvnAcls(List<Ipv4Cidr> protectedRanges) {
    this.protectedRanges = protectedRanges;
  }

  /** {@code agent-<first 8 bytes of sha256(logical) in hex>}. */
  static String agentAclName(String logical) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(logical.getBytes(StandardCharsets.UTF_8));
      return "agent-" + HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing", e);
    }
  }

  /**
   * Creates the baseline and the network's agent ACL unless they exist; existing ones must be
   * owned.
   */
  void ensure(IncusClient project, String sandbox, String logical) {
    List<NetworkAcl.Rule> drops = new ArrayList<>();
    for (int i = 0; i < protectedRanges.size(); i++) {
      drops.add(
          NetworkAcl.Rule.of(
              "drop",
              "",
              protectedRanges.get(i).toString(),
              "",
              "",
              ID_PREFIX + BaselineRules.id(i)));
    }
    ensureAcl(
        project,
        sandbox,
        new NetworkAcl(
            BASELINE,
            "agentcompute baseline management and OOB drops",
            List.of(),
            drops,
            Meta.tags(sandbox, BASELINE),
            null,
            null));
    ensureAcl(
        project,
        sandbox,
        NetworkAcl.of(
            agentAclName(logical), "agentcompute agent ACL", Meta.tags(sandbox, logical)));
  }

  private static void ensureAcl(IncusClient project, String sandbox, NetworkAcl wanted) {
    try {
      NetworkAcl existing = project.networkAcls().get(wanted.name());
      if (!sandbox.equals(existing.config().get(Meta.SANDBOX))) {
        throw new BackendException(
            Kind.FAILED, "network ACL " + wanted.name() + " is not owned by sandbox " + sandbox);
      }
    } catch (IncusException e) {
      if (!IncusFailures.isNotFound(e)) {
        throw e;
      }
      project.networkAcls().create(wanted);
    }
  }

  String add(IncusClient project, String logical, AclRuleSpec spec) {
    String id = "r-" + HexFormat.of().formatHex(bytes8());
    NetworkAcl.Rule rule =
        NetworkAcl.Rule.of(
            spec.action().wireName(),
            spec.source(),
            spec.destination(),
            spec.protocol() == AclProtocol.ICMP ? "icmp4" : spec.protocol().wireName(),
            spec.port(),
            ID_PREFIX + id);
    update(
        project,
        agentAclName(logical),
        acl -> {
          List<NetworkAcl.Rule> ingress = new ArrayList<>(acl.ingress());
          List<NetworkAcl.Rule> egress = new ArrayList<>(acl.egress());
          (spec.direction() == AclDirection.INGRESS ? ingress : egress).add(rule);
          return acl.withRules(ingress, egress);
        });
    return id;
  }

  private byte[] bytes8() {
    byte[] bytes = new byte[8];
    random.nextBytes(bytes);
    return bytes;
  }

  void remove(IncusClient project, String sandbox, String logical, String id) {
    if (BaselineRules.isBaseline(id)) {
      throw Errors.of("rule \"%s\" is a baseline ACL and cannot be removed", id);
    }
    update(
        project,
        agentAclName(logical),
        acl -> {
          List<NetworkAcl.Rule> ingress = without(acl.ingress(), id);
          List<NetworkAcl.Rule> egress = without(acl.egress(), id);
          if (ingress.size() == acl.ingress().size() && egress.size() == acl.egress().size()) {
            throw Errors.of(
                "rule \"%s\" not found on network \"%s\" in sandbox \"%s\"", id, logical, sandbox);
          }
          return acl.withRules(ingress, egress);
        });
  }

  private static List<NetworkAcl.Rule> without(List<NetworkAcl.Rule> rules, String id) {
    return rules.stream().filter(r -> !(ID_PREFIX + id).equals(r.description())).toList();
  }

  /**
   * Read-modify-write with the ACL's ETag, retried a few times when someone else wrote in between.
   */
  private static void update(
      IncusClient project, String name, java.util.function.UnaryOperator<NetworkAcl> change) {
    for (int attempt = 1; ; attempt++) {
      Tagged<NetworkAcl> current = project.networkAcls().getTagged(name);
      try {
        project.networkAcls().update(change.apply(current.value()), current.etag());
        return;
      } catch (IncusException e) {
        if (attempt >= 8 || !(e instanceof IncusException.PreconditionFailed)) {
          throw e;
        }
      }
    }
  }

  /** Deletes the agent ACL of a network if this sandbox owns it. */
  static void deleteAgentAcl(IncusClient project, String sandbox, String logical) {
    String name = agentAclName(logical);
    try {
      Map<String, String> config = project.networkAcls().get(name).config();
      if (sandbox.equals(config.get(Meta.SANDBOX))) {
        IncusFailures.ignoreNotFound(() -> project.networkAcls().delete(name));
      }
    } catch (IncusException e) {
      if (!IncusFailures.isNotFound(e)) {
        throw e;
      }
    }
  }

  /** Deletes every ACL of the project this sandbox owns. */
  static void deleteOwned(IncusClient project, String sandbox) {
    for (NetworkAcl acl : project.networkAcls().list()) {
      if (sandbox.equals(acl.config().get(Meta.SANDBOX))) {
        IncusFailures.ignoreNotFound(() -> project.networkAcls().delete(acl.name()));
      }
    }
  }
}
