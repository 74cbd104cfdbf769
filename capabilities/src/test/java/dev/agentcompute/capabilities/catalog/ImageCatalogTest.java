package dev.agentcompute.capabilities.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ImageCatalogTest {
  private static final String ENTRY =
      """
        - name: busybox
          os: busybox
          version: "1.35.0"
          kind: container
          kinds: [container]
          alias: busybox
          cpus: 1
          memory_mb: 128
          disk_gb: 1
      """;

  private static String catalog(String entries) {
    return "schema_version: 1\nimages:\n" + entries;
  }

  @Test
  void theRepositoryCatalogueLoadsAndHasTheBusyboxTestImage() {
    Path file = Path.of(System.getProperty("agentcompute.root", ".."), "images", "catalog.yaml");
    ImageCatalog catalog = ImageCatalog.load(file);
    CatalogImage busybox = catalog.find("busybox").orElseThrow();
    assertThat(busybox.platform()).isEqualTo("incus");
    assertThat(busybox.source()).isEqualTo(new ImageSource.Alias("busybox"));
    assertThat(busybox.kind()).isEqualTo("container");
  }

  @Test
  void defaultsPlatformAndDesktopAndFiltersExactly() {
    ImageCatalog catalog =
        ImageCatalog.parse(
            catalog(
                ENTRY
                    + """
        - name: ubuntu-desktop
          os: ubuntu
          version: "24.04"
          kind: vm
          kinds: [vm, container]
          desktop: true
          reference: images:ubuntu/24.04/desktop
          cpus: 4
          memory_mb: 8192
          disk_gb: 40
      """));
    assertThat(catalog.images())
        .extracting(CatalogImage::name)
        .containsExactly("busybox", "ubuntu-desktop");
    assertThat(catalog.find("busybox").orElseThrow().desktop()).isFalse();
    assertThat(catalog.filter("ubuntu", null, null))
        .extracting(CatalogImage::name)
        .containsExactly("ubuntu-desktop");
    assertThat(catalog.filter(null, true, "incus")).hasSize(1);
    assertThat(catalog.filter(null, null, "mac")).isEmpty();
    assertThat(
            ((ImageSource.Reference) catalog.find("ubuntu-desktop").orElseThrow().source())
                .isRemoteAlias())
        .isTrue();
  }

  @Test
  void unknownKeysAreErrorsNamingTheKey() {
    assertThatThrownBy(() -> ImageCatalog.parse(catalog(ENTRY + "    colour: blue\n")))
        .isInstanceOf(CatalogException.class)
        .hasMessage("catalog image \"busybox\": unknown key \"colour\"");
    assertThatThrownBy(() -> ImageCatalog.parse("schema_version: 1\nimages: []\nextra: 1\n"))
        .hasMessage("catalog: unknown key \"extra\"");
  }

  @Test
  void schemaVersionAndShapeAreChecked() {
    assertThatThrownBy(() -> ImageCatalog.parse("schema_version: 2\nimages: []\n"))
        .hasMessage("catalog schema_version must be 1");
    assertThatThrownBy(() -> ImageCatalog.parse("images: []\n"))
        .hasMessage("catalog schema_version must be 1");
    assertThatThrownBy(() -> ImageCatalog.parse("schema_version: 1\nimages: {}\n"))
        .hasMessage("catalog images must be a list");
  }

  @Test
  void entryRulesNameTheEntry() {
    assertThatThrownBy(
            () -> ImageCatalog.parse(catalog(ENTRY.replace("kinds: [container]", "kinds: [vm]"))))
        .hasMessage("catalog image \"busybox\": kind \"container\" must be one of kinds [vm]");
    assertThatThrownBy(
            () ->
                ImageCatalog.parse(
                    catalog(ENTRY.replace("alias: busybox", "seed: x\n    platform: incus"))))
        .hasMessage("catalog image \"busybox\": mac images must use seed, and only mac images may");
    assertThatThrownBy(() -> ImageCatalog.parse(catalog(ENTRY + "    reference: a:b\n")))
        .hasMessage("catalog image \"busybox\": set exactly one of reference, alias and seed");
    assertThatThrownBy(() -> ImageCatalog.parse(catalog(ENTRY.replace("cpus: 1", "cpus: 0"))))
        .hasMessage("catalog image \"busybox\": cpus must be a positive integer");
    assertThatThrownBy(() -> ImageCatalog.parse(catalog(ENTRY.replace("    os: busybox\n", ""))))
        .hasMessage("catalog image \"busybox\": os is required");
    assertThatThrownBy(() -> ImageCatalog.parse(catalog(ENTRY + ENTRY)))
        .hasMessage("catalog image \"busybox\" is defined twice");
    assertThatThrownBy(
            () ->
                ImageCatalog.parse(
                    catalog(ENTRY.replace("alias: busybox", "reference: ghcr.io/x@sha256:12"))))
        .hasMessageContaining("must be <repo>@sha256:<64 hex> or remote:alias");
  }
}
