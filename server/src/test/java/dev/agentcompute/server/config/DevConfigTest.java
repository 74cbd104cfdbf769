package dev.agentcompute.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.catalog.CatalogImage;
import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.server.LocalStack;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The configuration dev/setup writes for dev/run (dev/config/agentcompute.yaml, rendered as the
 * script renders it): valid, with screenshot URLs left to each server's own listener, and a
 * catalogue that offers the desktop test double.
 */
class DevConfigTest {
  @TempDir Path state;

  @Test
  void devRunsConfigurationIsValidAndOffersTheDesktopTestDouble() throws IOException {
    Path root = LocalStack.root();
    String rendered =
        Files.readString(root.resolve("dev/config/agentcompute.yaml"))
            .replace("@INCUS_SOCKET@", state.resolve("incus/unix.socket").toString())
            .replace("@OVN_NB_SOCKET@", state.resolve("ovn/ovnnb_db.sock").toString())
            .replace("@ROOT@", root.toString())
            .replace("@SCREENSHOTS_DIR@", state.resolve("screenshots").toString());
    Path file = state.resolve("agentcompute.yaml");
    Files.writeString(file, rendered);

    ServerConfig c = ConfigLoader.load(file).config();
    assertThat(c.screenshots().baseUrl()).isEmpty();
    assertThat(c.admin().isOperator("development")).isTrue();
    assertThat(c.screenshots().listen()).isEqualTo("127.0.0.1:0");
    assertThat(c.screenshots().dir()).isEqualTo(state.resolve("screenshots"));
    // dev/ovn-stack's uplink network, named here because a site's networks have no defaults
    assertThat(c.incus().ovnUplink()).contains("ovn-uplink");
    assertThat(c.incus().ovnRanges()).contains("10.90.1.241-10.90.1.254");
    assertThat(c.sandbox().warmPoolSize()).isEqualTo(2);

    ImageCatalog catalog = ImageCatalog.load(c.imagesFile());
    assertThat(catalog.images()).extracting(CatalogImage::name).contains("busybox");
    CatalogImage desk = catalog.find("busybox-desktop").orElseThrow();
    assertThat(desk.desktop()).isTrue();
    assertThat(desk.description()).contains("Test double");
  }
}
