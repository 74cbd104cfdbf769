package dev.agentcompute.incus;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.type.TypeReference;

/** {@code /1.0/profiles} in the client's project. */
public final class Profiles {

  private final Rest rest;
  private final Scope scope;

  Profiles(Rest rest, Scope scope) {
    this.rest = rest;
    this.scope = scope;
  }

  public List<Profile> list() {
    return rest.get(scope, "/1.0/profiles?recursion=1", new TypeReference<List<Profile>>() {});
  }

  /** The names of the project's profiles ({@code recursion=0}: no {@code used_by} to compute). */
  public List<String> names() {
    return Scope.lastSegments(
        rest.get(scope, "/1.0/profiles", new TypeReference<List<String>>() {}));
  }

  public Profile get(String name) {
    return rest.get(scope, path(name), Profile.class);
  }

  public Tagged<Profile> getTagged(String name) {
    return rest.getTagged(scope, path(name), Profile.class);
  }

  public void create(Profile profile) {
    Map<String, Object> body = writable(profile);
    body.put("name", profile.name());
    rest.call(scope, "POST", "/1.0/profiles", body, null);
  }

  /** Replaces description, config and devices; {@code etag} (nullable) is sent as If-Match. */
  public void update(Profile profile, String etag) {
    rest.call(scope, "PUT", path(profile.name()), writable(profile), etag);
  }

  public void delete(String name) {
    rest.call(scope, "DELETE", path(name), null, null);
  }

  private static Map<String, Object> writable(Profile profile) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("description", profile.description() == null ? "" : profile.description());
    body.put("config", profile.config());
    body.put("devices", profile.devices());
    return body;
  }

  private static String path(String name) {
    return "/1.0/profiles/" + Scope.segment(name);
  }
}
