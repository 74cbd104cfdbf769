package dev.agentcompute.incus;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import tools.jackson.core.type.TypeReference;

/** {@code /1.0/projects}. Projects are global: the client's project scope does not apply here. */
public final class Projects {

  /**
   * How often an update is retried when somebody else changed the project in between (HTTP 412).
   */
  static final int UPDATE_ATTEMPTS = 8;

  private final Rest rest;

  Projects(Rest rest) {
    this.rest = rest;
  }

  public List<Project> list() {
    return rest.get(
        Scope.DEFAULT, "/1.0/projects?recursion=1", new TypeReference<List<Project>>() {});
  }

  public Project get(String name) {
    return rest.get(Scope.DEFAULT, path(name), Project.class);
  }

  public Tagged<Project> getTagged(String name) {
    return rest.getTagged(Scope.DEFAULT, path(name), Project.class);
  }

  public void create(String name, String description, Map<String, String> config) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", name);
    body.put("description", description == null ? "" : description);
    body.put("config", config == null ? Map.of() : config);
    rest.call(Scope.DEFAULT, "POST", "/1.0/projects", body, null);
  }

  /** Replaces description and config; {@code etag} (nullable) guards against lost updates. */
  public void update(Project project, String etag) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("description", project.description() == null ? "" : project.description());
    body.put("config", project.config());
    rest.call(Scope.DEFAULT, "PUT", path(project.name()), body, etag);
  }

  /**
   * Read-modify-write with If-Match, retried up to {@value #UPDATE_ATTEMPTS} times on 412. Returns
   * the project as written.
   */
  public Project update(String name, UnaryOperator<Project> change) {
    IncusException.PreconditionFailed last = null;
    for (int attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
      Tagged<Project> current = getTagged(name);
      Project changed = change.apply(current.value());
      try {
        update(changed, current.etag());
        return changed;
      } catch (IncusException.PreconditionFailed e) {
        last = e;
      }
    }
    throw last;
  }

  public void delete(String name) {
    rest.call(Scope.DEFAULT, "DELETE", path(name), null, null);
  }

  /**
   * Renames a project in one step (Incus refuses it while the project holds instances, images,
   * volumes or profiles other than {@code default}); {@link IncusException.Conflict} when {@code
   * newName} is taken, not found when {@code name} is gone.
   */
  public void rename(String name, String newName) {
    rest.call(Scope.DEFAULT, "POST", path(name), Map.of("name", newName), null);
  }

  private static String path(String name) {
    return "/1.0/projects/" + Scope.segment(name);
  }
}
