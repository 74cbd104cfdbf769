package dev.agentcompute.incus;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.type.TypeReference;

/** {@code /1.0/network-acls} in the client's project. */
public final class NetworkAcls {

  private final Rest rest;
  private final Scope scope;

  NetworkAcls(Rest rest, Scope scope) {
    this.rest = rest;
    this.scope = scope;
  }

  public List<NetworkAcl> list() {
    return rest.get(
        scope, "/1.0/network-acls?recursion=1", new TypeReference<List<NetworkAcl>>() {});
  }

  public NetworkAcl get(String name) {
    return rest.get(scope, path(name), NetworkAcl.class);
  }

  public Tagged<NetworkAcl> getTagged(String name) {
    return rest.getTagged(scope, path(name), NetworkAcl.class);
  }

  public void create(NetworkAcl acl) {
    Map<String, Object> body = writable(acl);
    body.put("name", acl.name());
    rest.call(scope, "POST", "/1.0/network-acls", body, null);
  }

  /** Replaces rules, description and config; {@code etag} (nullable) is sent as If-Match. */
  public void update(NetworkAcl acl, String etag) {
    rest.call(scope, "PUT", path(acl.name()), writable(acl), etag);
  }

  public void delete(String name) {
    rest.call(scope, "DELETE", path(name), null, null);
  }

  private static Map<String, Object> writable(NetworkAcl acl) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("description", acl.description() == null ? "" : acl.description());
    body.put("ingress", acl.ingress());
    body.put("egress", acl.egress());
    body.put("config", acl.config());
    return body;
  }

  private static String path(String name) {
    return "/1.0/network-acls/" + Scope.segment(name);
  }
}
