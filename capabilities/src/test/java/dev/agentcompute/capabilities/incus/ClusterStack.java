package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.config.IdentityLimits;
import dev.agentcompute.capabilities.config.Quotas;
import dev.agentcompute.capabilities.model.SubnetPool;
import dev.agentcompute.incus.ClusterMember;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusIdentity;
import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The cluster dev/cluster made, as its {@code cluster.conf} (named by {@code INCUS_CLUSTER_CONF})
 * describes it: an HTTPS client with the trusted client certificate and the pinned server
 * certificate, the member names, and a compute configuration for it.
 */
record ClusterStack(
    URI url,
    Path clientCert,
    Path clientKey,
    Path serverCert,
    Path incusConf,
    String remote,
    List<String> members,
    List<String> addresses,
    String pool,
    String imageProject,
    SubnetPool bridgeSubnets,
    String ovnUplink) {

  /** The cluster of {@code INCUS_CLUSTER_CONF}, or why there is none. */
  static Optional<ClusterStack> fromEnvironment() {
    String file = System.getenv("INCUS_CLUSTER_CONF");
    if (file == null || file.isEmpty() || !Files.isRegularFile(Path.of(file))) {
      return Optional.empty();
    }
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(Path.of(file))) {
      p.load(in);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + file, e);
    }
    return Optional.of(
        new ClusterStack(
            URI.create(p.getProperty("url")),
            Path.of(p.getProperty("client_cert")),
            Path.of(p.getProperty("client_key")),
            Path.of(p.getProperty("server_cert")),
            Path.of(p.getProperty("incus_conf")),
            p.getProperty("remote"),
            Arrays.asList(p.getProperty("members").split(",")),
            Arrays.asList(p.getProperty("addresses").split(",")),
            p.getProperty("pool"),
            p.getProperty("image_project"),
            SubnetPool.parse(p.getProperty("bridge_subnets"), 24),
            p.getProperty("ovn_uplink", "")));
  }

  /**
   * The cluster's uplink for OVN networks ({@code dev/cluster ovn-up}, run by {@code up} when the
   * host runs OVN central), or empty when OVN does not span the members.
   */
  Optional<String> ovnUplinkNetwork() {
    return ovnUplink == null || ovnUplink.isEmpty() ? Optional.empty() : Optional.of(ovnUplink);
  }

  IncusClient client() {
    return client(url, IncusIdentity.fromPem(clientCert.toString(), clientKey.toString()));
  }

  /**
   * A client of the member at {@code memberUrl} with {@code identity} (which the cluster must
   * trust). Every member serves the cluster's certificate, so the one pinned for {@code url} holds.
   */
  IncusClient client(URI memberUrl, IncusIdentity identity) {
    return IncusClient.https(memberUrl, identity)
        .pinnedServerCertificate(serverCert.toString())
        .requestTimeout(Duration.ofSeconds(30))
        .operationTimeout(Duration.ofMinutes(5))
        .build();
  }

  /** The member our client dials ({@code url}'s address): it must stay up for the client. */
  String dialledMember(IncusClient client) {
    return client.cluster().members().stream()
        .filter(m -> URI.create(m.url()).getHost().equals(url.getHost()))
        .map(ClusterMember::serverName)
        .findFirst()
        .orElseThrow();
  }

  /** Test subnets from the cluster's own pool; bridge sandboxes on {@code member}. */
  ComputeConfig config(String member) {
    return ComputeConfig.defaults()
        .withCatalogFile(LocalIncus.root().resolve("images/catalog.yaml"))
        .withBridgeSubnets(bridgeSubnets)
        .withStoragePool(pool)
        .withImageProject(imageProject)
        .withMember(member)
        .withPinIdentities(Set.of("operator"))
        .withReaperInterval(Duration.ofHours(1))
        .withQuotas(
            new Quotas(
                4,
                8192,
                128,
                1000,
                1000,
                Duration.ofDays(3),
                32,
                64,
                65536,
                32,
                4096,
                0,
                new IdentityLimits(1000, 1000, 1000, 128 * IdentityLimits.MIB)));
  }

  /** Each member's status by name. */
  static Map<String, String> statuses(IncusClient client) {
    return client.cluster().members().stream()
        .collect(Collectors.toMap(ClusterMember::serverName, ClusterMember::status));
  }

  /**
   * Waits (bounded) until the members' statuses satisfy {@code wanted}; returns the last seen. A
   * loaded machine may show members Offline for a while after a change (stale heartbeats), so a
   * test asserts only after the cluster has settled.
   */
  static Map<String, String> awaitStatuses(
      IncusClient client, Predicate<Map<String, String>> wanted, Duration limit, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    Map<String, String> seen = Map.of();
    while (System.nanoTime() < deadline) {
      try {
        seen = statuses(client);
        if (wanted.test(seen)) {
          return seen;
        }
      } catch (RuntimeException e) {
        seen = Map.of("(cluster list failed)", String.valueOf(e.getMessage()));
      }
      Thread.sleep(1000);
    }
    throw new AssertionError(what + " within " + limit.toSeconds() + " s; last seen " + seen);
  }

  /** Runs the Incus CLI against the cluster's remote (member configuration has no client call). */
  void cli(String... args) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder();
    pb.command().add("incus");
    pb.command().addAll(List.of(args));
    pb.environment().put("INCUS_CONF", incusConf.toString());
    pb.redirectErrorStream(true);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("incus " + String.join(" ", args) + " failed: " + out);
    }
  }
}
