package dev.agentcompute.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.server.compute.ComputeWiring;
import dev.agentcompute.server.errors.ConfigException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

public class ConfigLoaderTest {
  public static final String MINIMAL =
      """
      incus: {remote: local, pool: default, ovn_uplink: uplink0}
      screenshots: {base_url: "http://127.0.0.1:8081"}
      """;

  @TempDir Path dir;

  private Path write(String name, String content) throws IOException {
    Path file = dir.resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
    return file;
  }

  private ConfigException failure(String name, String content) throws IOException {
    Path file = write(name, content);
    try {
      ConfigLoader.load(file);
    } catch (ConfigException e) {
      return e;
    }
    throw new AssertionError("configuration was accepted: " + content);
  }

  @Test
  void appliesDefaultsAndResolvesPathsAgainstTheFile() throws IOException {
    LoadedConfig loaded =
        ConfigLoader.load(write("etc/agentcompute.yaml", MINIMAL + "incus: {}\n".substring(0, 0)));
    ServerConfig c = loaded.config();
    assertThat(c.incus().remote()).contains("local");
    assertThat(c.incus().pool()).isEqualTo("default");
    // a site's networks have no defaults: MINIMAL names its uplink, and no forward range is set
    assertThat(c.incus().ovnUplink()).contains("uplink0");
    assertThat(c.incus().ovnRanges()).isEmpty();
    assertThat(c.network().protectedRanges()).isEmpty();
    assertThat(c.sandbox().defaultTtl()).isEqualTo(Duration.ofMinutes(240));
    assertThat(c.sandbox().maxTtl()).isEqualTo(Duration.ofMinutes(1440));
    assertThat(c.sandbox().defaultNetworkKind()).isEqualTo("ovn");
    assertThat(c.sandbox().pinIdentities()).isEmpty();
    assertThat(c.imagesFile()).isEqualTo(dir.resolve("etc/images/catalog.yaml"));
    assertThat(c.screenshots().dir()).isEqualTo(dir.resolve("etc/screenshots"));
    assertThat(c.screenshots().listen()).isEqualTo("127.0.0.1:8081");
    assertThat(c.screenshots().baseUrl()).contains(URI.create("http://127.0.0.1:8081"));
    assertThat(c.lume()).isEmpty();
    assertThat(c.incus().imageProject()).isEqualTo("default");
    assertThat(c.network().bridgeSubnets())
        .isEqualTo(dev.agentcompute.capabilities.model.SubnetPool.parse("10.210.0.0/16", 24));
    assertThat(loaded.digest()).hasSize(64);
  }

  @Test
  void ovnNorthboundEndpointResolvesLikeOtherPaths() throws IOException {
    ServerConfig unix =
        ConfigLoader.load(
                write(
                    "etc/nb.yaml",
                    """
                    incus: {remote: local, pool: default, ovn_uplink: uplink0, ovn_northbound: "unix:run/ovnnb_db.sock"}
                    screenshots: {base_url: "http://127.0.0.1:8081"}
                    """))
            .config();
    assertThat(unix.incus().ovnNorthbound().orElseThrow().toString())
        .isEqualTo("unix:" + dir.resolve("etc/run/ovnnb_db.sock"));
    ServerConfig tcp =
        ConfigLoader.load(
                write(
                    "etc/nb2.yaml",
                    """
                    incus: {remote: local, pool: default, ovn_uplink: uplink0, ovn_northbound: "tcp:127.0.0.1:6641"}
                    screenshots: {base_url: "http://127.0.0.1:8081"}
                    """))
            .config();
    assertThat(tcp.incus().ovnNorthbound().orElseThrow().toString())
        .isEqualTo("tcp:127.0.0.1:6641");
  }

  @Test
  void addressRangesAreConfiguration() throws IOException {
    ServerConfig c =
        ConfigLoader.load(
                write(
                    "ranges.yaml",
                    """
                    incus: {remote: local, pool: default, image_project: images, ovn_uplink: uplink0}
                    network:
                      bridge_subnets: 10.77.0.0/20
                      protected_ranges: [192.0.2.0/24, 198.51.100.0/25]
                    screenshots: {base_url: "http://127.0.0.1:8081"}
                    """))
            .config();
    assertThat(c.incus().imageProject()).isEqualTo("images");
    assertThat(c.incus().ovnNorthbound()).isEmpty();
    assertThat(c.network().bridgeSubnets())
        .isEqualTo(dev.agentcompute.capabilities.model.SubnetPool.parse("10.77.0.0/20", 24));
    assertThat(c.network().protectedRanges())
        .containsExactly(
            dev.agentcompute.capabilities.model.Ipv4Cidr.parse("192.0.2.0/24").orElseThrow(),
            dev.agentcompute.capabilities.model.Ipv4Cidr.parse("198.51.100.0/25").orElseThrow());
    var compute = ComputeWiring.computeConfig(c);
    assertThat(compute.bridgeSubnets()).isEqualTo(c.network().bridgeSubnets());
    assertThat(compute.protectedRanges()).isEqualTo(c.network().protectedRanges());
    assertThat(compute.imageProject()).isEqualTo("images");
  }

  @Test
  void theWarmPoolIsOffByDefaultAndTakesZeroToSixteenMembers() throws IOException {
    String base =
        "incus: {remote: local, pool: default, ovn_uplink: uplink0}\n"
            + "screenshots: {base_url: \"http://127.0.0.1:8081\"}\n";
    assertThat(ConfigLoader.load(write("w0.yaml", base)).config().sandbox().warmPoolSize())
        .isZero();
    ServerConfig sixteen =
        ConfigLoader.load(write("w1.yaml", base + "sandbox: {warm_pool: {size: 16}}\n")).config();
    assertThat(ComputeWiring.computeConfig(sixteen).warmPoolSize()).isEqualTo(16);
    assertThat(failure("w2.yaml", base + "sandbox: {warm_pool: {size: 17}}\n").getMessage())
        .contains("sandbox.warm_pool.size must be between 0 (off) and 16, got 17");
    assertThat(failure("w3.yaml", base + "sandbox: {warm_pool: {size: -1}}\n").getMessage())
        .contains("sandbox.warm_pool.size must be between 0 (off) and 16, got -1");
    assertThat(failure("w4.yaml", base + "sandbox: {warm_pool: {size: 2, spare: 1}}\n"))
        .hasMessageContaining("spare");
  }

  @Test
  void quotasAreConfigurationWithSafeDefaults() throws IOException {
    String base =
        "incus: {remote: local, pool: default, ovn_uplink: uplink0}\n"
            + "screenshots: {base_url: \"http://127.0.0.1:8081\"}\n";
    assertThat(ConfigLoader.load(write("q0.yaml", base)).config().sandbox().quotas())
        .isEqualTo(dev.agentcompute.capabilities.config.Quotas.defaults());
    ServerConfig c =
        ConfigLoader.load(
                write(
                    "q1.yaml",
                    base
                        + """
                        instance: {max_cpus: 2, max_memory_mb: 2048, max_disk_gb: 20, processes: 500}
                        sandbox:
                          max_per_identity: 3
                          max_lifetime_minutes: 2880
                          limits: {instances: 4, cpus: 4, memory_mb: 4096, networks: 2, disk_gb: 40, processes: 800}
                          identity_limits: {instances: 6, networks: 5, forwards: 7, screenshot_mb: 8}
                        codemode: {max_slots_per_identity: 2}
                        """))
            .config();
    assertThat(ComputeWiring.computeConfig(c).isolation())
        .isEqualTo(dev.agentcompute.capabilities.config.Isolation.shared());
    assertThat(
            ComputeWiring.computeConfig(
                    ConfigLoader.load(
                            write("q2.yaml", base + "sandbox: {access: owner, operators: [ops]}\n"))
                        .config())
                .isolation())
        .isEqualTo(
            new dev.agentcompute.capabilities.config.Isolation(true, java.util.Set.of("ops")));
    assertThat(ComputeWiring.computeConfig(c).quotas())
        .isEqualTo(
            new dev.agentcompute.capabilities.config.Quotas(
                2,
                2048,
                20,
                500,
                3,
                java.time.Duration.ofMinutes(2880),
                4,
                4,
                4096,
                2,
                40,
                800,
                new dev.agentcompute.capabilities.config.IdentityLimits(
                    6, 5, 7, 8L * 1024 * 1024)));
    assertThat(c.codemode().maxSlotsPerIdentity()).isEqualTo(2);
    ServerConfig defaults = ConfigLoader.load(write("q3.yaml", base)).config();
    assertThat(defaults.codemode().maxSlotsPerIdentity()).isEqualTo(4);
    assertThat(defaults.sandbox().quotas().identity())
        .isEqualTo(dev.agentcompute.capabilities.config.IdentityLimits.defaults());
    assertThat(defaults.sandbox().quotas().sandboxProcesses()).isZero();
  }

  @Test
  void readsTheSpecExampleInBothFormats() throws IOException {
    ServerConfig yaml =
        ConfigLoader.load(
                write(
                    "a.yml",
                    """
                    incus: {remote: nas01, pool: data, ovn_uplink: uplink0}
                    sandbox: {default_ttl_minutes: 60, max_ttl_minutes: 120, default_network_kind: ovn, pin_identities: [omp]}
                    images_file: ../images/catalog.yaml
                    screenshots: {base_url: http://127.0.0.1:8081}
                    """))
            .config();
    ServerConfig toml =
        ConfigLoader.load(
                write(
                    "a.toml",
                    """
                    images_file = "../images/catalog.yaml"
                    [incus]
                    remote = "nas01"
                    pool = "data"
                    ovn_uplink = "uplink0"
                    [sandbox]
                    default_ttl_minutes = 60
                    max_ttl_minutes = 120
                    default_network_kind = "ovn"
                    pin_identities = ["omp"]
                    [screenshots]
                    base_url = "http://127.0.0.1:8081"
                    """))
            .config();
    assertThat(toml).isEqualTo(yaml);
    assertThat(yaml.sandbox().pinIdentities()).containsExactly("omp");
    assertThat(yaml.sandbox().defaultTtl()).isEqualTo(Duration.ofMinutes(60));
    assertThat(yaml.imagesFile()).isEqualTo(dir.getParent().resolve("images/catalog.yaml"));
  }

  @Test
  void relativeCredentialAndLumePathsResolveButInlinePemStays() throws IOException {
    ServerConfig c =
        ConfigLoader.load(
                write(
                    "conf/x.yaml",
                    """
                    incus:
                      url: https://incus.example:8443
                      client_cert: certs/client.crt
                      client_key: /abs/client.key
                      server_cert: "-----BEGIN CERTIFICATE-----\\nMIIB\\n-----END CERTIFICATE-----"
                      pool: data
                      ovn_uplink: uplink0
                    lume:
                      host: mac01:22
                      identity_file: keys/id
                      known_hosts_file: keys/known
                      guest_known_hosts_file: keys/guest_known
                      guest_keys: {"macos/tahoe/desktop": keys/guest}
                    screenshots: {base_url: "https://shots.example/base", dir: /var/tmp/s}
                    """))
            .config();
    assertThat(c.incus().url()).contains(URI.create("https://incus.example:8443"));
    assertThat(c.incus().clientCert()).contains(dir.resolve("conf/certs/client.crt").toString());
    assertThat(c.incus().clientKey()).contains("/abs/client.key");
    assertThat(c.incus().serverCert().orElseThrow()).startsWith("-----BEGIN CERTIFICATE-----");
    ServerConfig.Lume lume = c.lume().orElseThrow();
    assertThat(lume.identityFile()).isEqualTo(dir.resolve("conf/keys/id"));
    assertThat(lume.guestKeys())
        .containsEntry("macos/tahoe/desktop", dir.resolve("conf/keys/guest"));
    assertThat(c.screenshots().dir()).isEqualTo(Path.of("/var/tmp/s"));
  }

  @Test
  void unixSocketUrlIsAccepted() throws IOException {
    ServerConfig c =
        ConfigLoader.load(
                write(
                    "u.yaml",
                    """
                    incus: {url: "unix:///run/incus/unix.socket", pool: default, ovn_uplink: uplink0}
                    screenshots: {base_url: "http://localhost:1"}
                    """))
            .config();
    assertThat(c.incus().url()).contains(URI.create("unix:///run/incus/unix.socket"));
  }

  @Test
  void unknownKeysAreNamed() throws IOException {
    assertThat(failure("k.yaml", MINIMAL + "sandbox: {default_ttl: 5}\n").getMessage())
        .isEqualTo("decode configuration: unknown key \"sandbox.default_ttl\"");
    assertThat(failure("k2.yaml", MINIMAL + "listen: x\n").getMessage())
        .isEqualTo("decode configuration: unknown key \"listen\"");
    assertThat(
            failure(
                    "k.toml",
                    """
                    [incus]
                    remote = "a"
                    pool = "b"
                    colour = "blue"
                    """)
                .getMessage())
        .startsWith("decode configuration: unknown key \"incus.colour\"");
  }

  @Test
  void wrongTypesAndDuplicatesAreNamed() throws IOException {
    assertThat(failure("t.yaml", MINIMAL + "sandbox: {max_ttl_minutes: lots}\n").getMessage())
        .startsWith("decode configuration: key \"sandbox.max_ttl_minutes\" has the wrong type");
    assertThat(failure("d.yaml", MINIMAL + "images_file: a\nimages_file: b\n").getMessage())
        .startsWith("decode configuration: ")
        .contains("images_file");
  }

  @Test
  void exactlyOneYamlDocument() throws IOException {
    assertThat(failure("two.yaml", MINIMAL + "---\nimages_file: x\n").getMessage())
        .isEqualTo("configuration must contain exactly one YAML document");
    assertThat(failure("none.yaml", "# only a comment\n").getMessage())
        .isEqualTo("configuration must contain exactly one YAML document");
  }

  @Test
  void extensionDecidesTheFormat() throws IOException {
    assertThat(failure("c.json", "{}").getMessage())
        .isEqualTo("configuration must be a .yaml, .yml, or .toml file");
  }

  @Test
  void missingFileIsAnOpenError() {
    Path missing = dir.resolve("missing.yaml");
    assertThatThrownBy(() -> ConfigLoader.load(missing))
        .isInstanceOf(ConfigException.class)
        .hasMessage("open configuration: " + missing + ": no such file");
  }

  @ParameterizedTest(name = "{2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "incus: {pool: p}                          | ''                                     |"
            + " configure exactly one of incus.remote and incus.url",
        "incus: {remote: r, url: 'https://h', pool: p} | ''                                 |"
            + " configure exactly one of incus.remote and incus.url",
        "incus: {remote: r}                        | ''                                     |"
            + " incus.pool is required",
        "incus: {remote: r, pool: p}               | 'sandbox: {default_network_kind: bridge}' |"
            + " incus.host is required for bridge sandboxes",
        "incus: {remote: r, pool: p}               | 'sandbox: {default_network_kind: vxlan}'  |"
            + " sandbox.default_network_kind must be bridge or ovn",
        "incus: {remote: r, pool: p}               | 'sandbox: {default_ttl_minutes: -1}'      |"
            + " sandbox TTL minutes must be positive, representable durations with default <="
            + " maximum",
        "incus: {remote: r, pool: p}               | 'sandbox: {default_ttl_minutes: 500,"
            + " max_ttl_minutes: 400}' | sandbox TTL minutes must be positive, representable"
            + " durations with default <= maximum",
        "incus: {remote: r, pool: p}               | 'sandbox: {max_ttl_minutes: 153722868}'   |"
            + " sandbox TTL minutes must be positive, representable durations with default <="
            + " maximum",
        "incus: {remote: r, pool: p}               | 'images_file: \"\"'                        |"
            + " images_file must not be empty",
        "incus: {remote: r, pool: p}               | 'lume: {identity_file: a, known_hosts_file: b,"
            + " guest_known_hosts_file: c}' | lume.host is required",
        "incus: {remote: r, pool: p}               | 'lume: {host: m, known_hosts_file: b,"
            + " guest_known_hosts_file: c}' | lume.identity_file is required",
        "incus: {remote: r, pool: p}               | 'lume: {host: m, identity_file: a,"
            + " guest_known_hosts_file: c}' | lume.known_hosts_file is required",
        "incus: {remote: r, pool: p}               | 'lume: {host: m, identity_file: a,"
            + " known_hosts_file: b}' | lume.guest_known_hosts_file is required",
        "incus: {remote: r, pool: p}               | 'incus_extra: 1' | decode configuration:"
            + " unknown key \"incus_extra\"",
        "incus: {remote: r, pool: p, ovn_northbound: 'ssl:h:6641'} | '' | incus.ovn_northbound"
            + " \"ssl:h:6641\" needs incus.ovn_northbound_tls {client_cert, client_key, and ca_cert"
            + " or server_sha256}",
        "incus: {remote: r, pool: p, ovn_northbound: 'ssl:h'} | '' | incus.ovn_northbound must be"
            + " tcp:HOST:PORT, ssl:HOST:PORT or unix:PATH, got \"ssl:h\"",
        "incus: {remote: r, pool: p, ovn_northbound: 'udp:h:1'} | '' | incus.ovn_northbound must be"
            + " tcp:HOST:PORT, ssl:HOST:PORT or unix:PATH, got \"udp:h:1\"",
        "incus: {remote: r, pool: p, ovn_northbound_tls: {ca_cert: ca.pem}} | '' |"
            + " incus.ovn_northbound_tls is set but incus.ovn_northbound is not: set"
            + " incus.ovn_northbound: \"ssl:HOST:PORT\" or remove the block",
        "incus: {remote: r, pool: p, ovn_northbound: 'tcp:h:6641', ovn_northbound_tls: {ca_cert:"
            + " ca.pem}} | '' | incus.ovn_northbound_tls is only for ssl: connections, but"
            + " incus.ovn_northbound is \"tcp:h:6641\": use ssl:HOST:PORT or remove the block",
        "incus: {remote: r, pool: p}               | 'sandbox: {default_network_kind: ovn}' |"
            + " incus.ovn_uplink is required for OVN sandboxes (sandbox.default_network_kind: ovn):"
            + " name this site's uplink network, e.g. incus: {ovn_uplink: uplink0} (`incus network"
            + " list` shows it), or set sandbox.default_network_kind: bridge",
        "incus: {remote: r, pool: p, ovn_uplink: u, ovn_ranges: 10.1.2.3} | '' | incus.ovn_ranges"
            + " must be an IPv4 CIDR or an A.B.C.D-E.F.G.H range, got \"10.1.2.3\"",
        "incus: {remote: r, pool: p}               | 'network: {bridge_subnets: 10.1.2.0/25}' |"
            + " network.bridge_subnets must be an IPv4 CIDR of /24 or larger, got \"10.1.2.0/25\"",
        "incus: {remote: r, pool: p}               | 'network: {bridge_subnets: auto}' |"
            + " network.bridge_subnets must be an IPv4 CIDR of /24 or larger, got \"auto\"",
        "incus: {remote: r, pool: p}               | 'network: {protected_ranges: [10.0.0.0/8,"
            + " 10.1.1.1]}' | network.protected_ranges entries must be IPv4 CIDRs, got"
            + " \"10.1.1.1\"",
        "incus: {remote: r, pool: p}               | 'instance: {max_cpus: 0}' | instance.max_cpus"
            + " must be between 1 and 256, got 0",
        "incus: {remote: r, pool: p}               | 'instance: {processes: -5}' |"
            + " instance.processes must be between 1 and 4194304, got -5",
        "incus: {remote: r, pool: p}               | 'instance: {background_processes: 0}' |"
            + " instance.background_processes must be between 1 and 1000, got 0",
        "incus: {remote: r, pool: p}               | 'instance: {background_output_mb: 2048}' |"
            + " instance.background_output_mb must be between 1 and 1024, got 2048",
        "incus: {remote: r, pool: p}               | 'instance: {max_memory_mbs: 5}' | decode"
            + " configuration: unknown key \"instance.max_memory_mbs\"",
        "incus: {remote: r, pool: p}               | 'sandbox: {max_per_identity: 0}' |"
            + " sandbox.max_per_identity must be between 1 and 100000, got 0",
        "incus: {remote: r, pool: p}               | 'sandbox: {max_ttl_minutes: 600,"
            + " max_lifetime_minutes: 300}' | sandbox.max_lifetime_minutes (300) must be at least"
            + " sandbox.max_ttl_minutes (600)",
        "incus: {remote: r, pool: p}               | 'sandbox: {limits: {cpus: 2}}' |"
            + " sandbox.limits.cpus (2) must be at least instance.max_cpus (4)",
        "incus: {remote: r, pool: p}               | 'sandbox: {identity_limits: {instances: 0}}' |"
            + " sandbox.identity_limits.instances must be between 1 and 100000, got 0",
        "incus: {remote: r, pool: p}               | 'sandbox: {identity_limits: {screenshot_mb:"
            + " 129}}' | sandbox.identity_limits.screenshot_mb must be between 1 and 128, got 129",
        "incus: {remote: r, pool: p}               | 'sandbox: {identity_limits: {instance: 3}}' |"
            + " decode configuration: unknown key \"sandbox.identity_limits.instance\"",
        "incus: {remote: r, pool: p}               | 'sandbox: {limits: {disk_gb: 100}}' |"
            + " sandbox.limits.disk_gb (100) must be at least instance.max_disk_gb (128)",
        "incus: {remote: r, pool: p}               | 'sandbox: {limits: {processes: 10}}' |"
            + " sandbox.limits.processes (10) must be at least instance.processes (1000)",
        "incus: {remote: r, pool: p}               | 'codemode: {max_slots_per_identity: 9}' |"
            + " codemode.max_slots_per_identity must be between 1 and 8 (the server's execution"
            + " slots), got 9",
        "incus: {remote: r, pool: p}               | 'sandbox: {access: mine}' | sandbox.access"
            + " must be all or owner, got \"mine\"",
        "incus: {remote: r, pool: p}               | 'sandbox: {access: owner, operators: [\"\"]}'"
            + " | sandbox.operators entries must be identities, got an empty one",
      })
  void validationMessages(String incus, String extra, String message) throws IOException {
    String shots = "screenshots: {base_url: 'http://127.0.0.1:8081'}\n";
    ConfigException e = failure("v.yaml", incus + "\n" + extra + "\n" + shots);
    assertThat(e.problems()).contains(message);
  }

  @Test
  void screenshotBaseUrlRules() throws IOException {
    String incus = "incus: {remote: r, pool: p, ovn_uplink: uplink0}\n";
    // Optional: without it, URLs point at the listener that serves them.
    assertThat(ConfigLoader.load(write("s1.yaml", incus)).config().screenshots().baseUrl())
        .isEmpty();
    for (String bad :
        new String[] {"ftp://h/", "/relative", "http://u:p@h/", "http://h/?q=1", "http://h/#f"}) {
      assertThat(failure("s2.yaml", incus + "screenshots: {base_url: '" + bad + "'}\n").problems())
          .containsExactly(
              "screenshots.base_url must be an absolute http or https"
                  + " URL without userinfo, query, or fragment");
    }
  }

  @Test
  void reportsEveryProblemAtOnce() throws IOException {
    ConfigException e = failure("many.yaml", "sandbox: {default_network_kind: x}\n");
    assertThat(e.problems())
        .containsExactly(
            "configure exactly one of incus.remote and incus.url",
            "incus.pool is required",
            "sandbox.default_network_kind must be bridge or ovn");
  }

  @Test
  void gitCommitOfTheConfigurationDirectory() throws IOException {
    String hash = "0123456789abcdef0123456789abcdef01234567";
    Files.createDirectories(dir.resolve("repo/.git/refs/heads"));
    Files.writeString(dir.resolve("repo/.git/HEAD"), "ref: refs/heads/main\n");
    Files.writeString(dir.resolve("repo/.git/refs/heads/main"), hash + "\n");
    Path file = write("repo/deploy/agentcompute.yaml", MINIMAL);
    assertThat(ConfigLoader.load(file).gitCommit()).contains(hash);

    Files.delete(dir.resolve("repo/.git/refs/heads/main"));
    String packed = "fedcba9876543210fedcba9876543210fedcba98";
    Files.writeString(
        dir.resolve("repo/.git/packed-refs"),
        "# pack-refs with: peeled\n" + packed + " refs/heads/main\n");
    assertThat(ConfigLoader.load(file).gitCommit()).contains(packed);

    Files.writeString(dir.resolve("repo/.git/HEAD"), hash + "\n");
    assertThat(ConfigLoader.load(file).gitCommit()).contains(hash);
  }
}
