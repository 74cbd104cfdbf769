package dev.agentcompute.incus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Network ACLs and profiles in a project of their own. */
class AclsAndProfilesIT {

  @Test
  void aclRulesAreReplacedUnderETag() {
    try (IncusClient client = IncusTestDaemon.client()) {
      String project = IncusTestDaemon.name("it");
      client
          .projects()
          .create(
              project,
              "acl IT",
              Map.of(
                  "features.networks",
                  "true",
                  "features.images",
                  "false",
                  "features.profiles",
                  "false"));
      IncusClient scoped = client.inProject(project);
      try {
        scoped
            .networkAcls()
            .create(
                NetworkAcl.of("agent-acl", "agent ACL", Map.of("user.agentcompute.version", "1"))
                    .withRules(
                        List.of(),
                        List.of(
                            NetworkAcl.Rule.of(
                                "drop",
                                null,
                                "10.10.10.0/24",
                                null,
                                null,
                                "agentcompute:id=baseline"))));
        NetworkAcl acl = scoped.networkAcls().get("agent-acl");
        assertThat(acl.egress())
            .singleElement()
            .satisfies(
                r -> {
                  assertThat(r.action()).isEqualTo("drop");
                  assertThat(r.destination()).isEqualTo("10.10.10.0/24");
                  assertThat(r.state()).isEqualTo("enabled");
                });
        assertThat(acl.ingress()).isEmpty();

        Tagged<NetworkAcl> tagged = scoped.networkAcls().getTagged("agent-acl");
        NetworkAcl.Rule allow =
            NetworkAcl.Rule.of("allow", "10.0.0.0/8", null, "tcp", "22", "agentcompute:id=r-1");
        scoped
            .networkAcls()
            .update(
                tagged.value().withRules(List.of(allow), tagged.value().egress()), tagged.etag());
        assertThat(scoped.networkAcls().get("agent-acl").ingress())
            .singleElement()
            .satisfies(r -> assertThat(r.destinationPort()).isEqualTo("22"));
        assertThatThrownBy(() -> scoped.networkAcls().update(tagged.value(), tagged.etag()))
            .isInstanceOf(IncusException.PreconditionFailed.class);
        assertThat(scoped.networkAcls().list())
            .extracting(NetworkAcl::name)
            .containsExactly("agent-acl");
        assertThat(client.networkAcls().list())
            .extracting(NetworkAcl::name)
            .doesNotContain("agent-acl");
        assertThatThrownBy(
                () ->
                    scoped
                        .networkAcls()
                        .update(
                            NetworkAcl.of("agent-acl", "", Map.of())
                                .withRules(
                                    List.of(
                                        NetworkAcl.Rule.of("maybe", null, null, null, null, "bad")),
                                    List.of()),
                            null))
            .isInstanceOf(IncusException.Failed.class)
            .hasMessageContaining("Action must be one of");
      } finally {
        try {
          scoped.networkAcls().delete("agent-acl");
        } finally {
          client.projects().delete(project);
        }
      }
    }
  }

  @Test
  void profilesAreCreatedUpdatedAndDeleted() {
    try (IncusClient client = IncusTestDaemon.client()) {
      String project = IncusTestDaemon.name("it");
      client
          .projects()
          .create(
              project,
              "profile IT",
              Map.of("features.profiles", "true", "features.images", "false"));
      IncusClient scoped = client.inProject(project);
      try {
        Profile fresh = scoped.profiles().get("default");
        assertThat(fresh.devices()).isEmpty();
        scoped
            .profiles()
            .create(
                new Profile(
                    "small",
                    "limits",
                    Map.of("limits.cpu", "1"),
                    Map.of("root", Map.of("type", "disk", "path", "/", "pool", "default")),
                    null,
                    null));
        Tagged<Profile> tagged = scoped.profiles().getTagged("small");
        assertThat(tagged.value().config()).containsEntry("limits.cpu", "1");
        scoped
            .profiles()
            .update(tagged.value().withConfig(Map.of("limits.cpu", "2")), tagged.etag());
        assertThat(scoped.profiles().get("small").config()).containsEntry("limits.cpu", "2");
        assertThat(scoped.profiles().get("small").devices()).containsKey("root");
        assertThatThrownBy(() -> scoped.profiles().update(tagged.value(), tagged.etag()))
            .isInstanceOf(IncusException.PreconditionFailed.class);
        assertThat(scoped.profiles().list())
            .extracting(Profile::name)
            .containsExactlyInAnyOrder("default", "small");
        scoped.profiles().delete("small");
        assertThatThrownBy(() -> scoped.profiles().get("small"))
            .isInstanceOf(IncusException.NotFound.class);
      } finally {
        try {
          scoped.profiles().delete("small");
        } catch (IncusException.NotFound ignored) {
          // Deleted by the test itself.
        }
        client.projects().delete(project);
      }
    }
  }
}
