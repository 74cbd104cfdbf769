package dev.agentcompute.incus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Projects: create, list, ETag-guarded update with retry on 412, delete. */
class ProjectsIT {

  @Test
  void projectLifecycleWithETags() {
    try (IncusClient client = IncusTestDaemon.client()) {
      String name = IncusTestDaemon.name("it");
      client
          .projects()
          .create(
              name,
              "projects IT",
              Map.of(
                  "features.images",
                  "false",
                  "features.profiles",
                  "false",
                  "user.agentcompute.version",
                  "1"));
      try {
        assertThatThrownBy(() -> client.projects().create(name, "again", Map.of()))
            .isInstanceOf(IncusException.Conflict.class);
        Project project = client.projects().get(name);
        assertThat(project.config())
            .containsEntry("user.agentcompute.version", "1")
            .containsEntry("features.images", "false");
        assertThat(client.projects().list()).extracting(Project::name).contains("default", name);

        Tagged<Project> tagged = client.projects().getTagged(name);
        assertThat(tagged.etag()).isNotBlank();
        client.projects().update(with(tagged.value(), "user.a", "1"), tagged.etag());
        assertThatThrownBy(
                () -> client.projects().update(with(tagged.value(), "user.b", "2"), tagged.etag()))
            .isInstanceOf(IncusException.PreconditionFailed.class);

        // A concurrent writer changes the project between our read and our write, once.
        AtomicInteger attempts = new AtomicInteger();
        Project written =
            client
                .projects()
                .update(
                    name,
                    current -> {
                      if (attempts.getAndIncrement() == 0) {
                        Tagged<Project> other = client.projects().getTagged(name);
                        client
                            .projects()
                            .update(with(other.value(), "user.other", "x"), other.etag());
                      }
                      return with(current, "user.mine", "y");
                    });
        assertThat(attempts.get()).isEqualTo(2);
        assertThat(written.config())
            .containsEntry("user.other", "x")
            .containsEntry("user.mine", "y");
        assertThat(client.projects().get(name).config())
            .containsEntry("user.a", "1")
            .containsEntry("user.other", "x")
            .containsEntry("user.mine", "y");
      } finally {
        client.projects().delete(name);
      }
      assertThatThrownBy(() -> client.projects().get(name))
          .isInstanceOf(IncusException.NotFound.class);
    }
  }

  private static Project with(Project project, String key, String value) {
    Map<String, String> config = new HashMap<>(project.config());
    config.put(key, value);
    return project.withConfig(config);
  }
}
