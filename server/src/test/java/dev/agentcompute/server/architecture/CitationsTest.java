package dev.agentcompute.server.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The repository stands alone: no file cites a document outside it, and every link to a
 * docs/reference/ section (from code, tests, scripts or docs) leads to a page and heading that
 * exist. The rules a reader needs are in docs/reference/ (docs/README.md lists the pages). The scan
 * covers the whole tree from the root above this module except build output, {@code .git}, {@code
 * .state}, {@code node_modules} and upstream {@code testdata}.
 */
class CitationsTest {
  /** The docs directory's prefix, split so the synthetic references below are not scanned. */
  private static final String DOCS = "doc" + "s/";

  private static Path root;
  private static Citations citations;
  private static List<Path> files;

  @BeforeAll
  static void scan() throws IOException {
    root = Citations.repositoryRoot(Path.of(""));
    citations = new Citations(root);
    files = citations.files();
  }

  @Test
  void theScanCoversTheWholeRepository() {
    assertThat(files)
        .as("the scan reaches every module, the docs and the scripts")
        .contains(
            root.resolve("docs/reference/codemode.md"),
            root.resolve("dev/test"),
            root.resolve("codemode/src/main/java/dev/agentcompute/codemode/CodeMode.java"),
            root.resolve(
                "server/src/test/java/dev/agentcompute/server/architecture/CitationsTest.java"));
  }

  @Test
  void nothingCitesADocumentOutsideTheRepository() {
    List<Citations.Finding> found = new ArrayList<>();
    for (Path f : files) {
      Citations.read(f)
          .ifPresent(
              text ->
                  found.addAll(Citations.forbiddenCitations(root.relativize(f).toString(), text)));
    }
    assertThat(found).as("citations of documents outside the repository").isEmpty();
  }

  @Test
  void everyDocsReferenceLeadsToAnExistingSection() throws IOException {
    List<Citations.Finding> found = new ArrayList<>();
    for (Path f : files) {
      String text = Citations.read(f).orElse("");
      found.addAll(citations.brokenDocsReferences(root.relativize(f).toString(), text));
      if (f.startsWith(root.resolve("docs")) && f.toString().endsWith(".md")) {
        found.addAll(citations.brokenMarkdownLinks(f, text));
      }
    }
    assertThat(found).as("links to docs pages or sections that do not exist").isEmpty();
  }

  @Test
  void theReferencePagesExistAndTheDocsIndexLinksThem() throws IOException {
    String index = Files.readString(root.resolve("docs/README.md"));
    for (String page : List.of("codemode", "capabilities", "starlark", "policy", "rego")) {
      assertThat(root.resolve("docs/reference/" + page + ".md")).isRegularFile();
      assertThat(index).contains("(reference/" + page + ".md)");
    }
  }

  // ---- the scanner itself: each protection flags what it is for ---------------------------------

  @Test
  void eachKindOfOutsideCitationIsFlagged() {
    String section = "\u00a7";
    List<String> cited =
        List.of(
            "// as ../" + "shared/conformance/starlark says",
            "/** see shared/" + "notes/ovn-setup.md */",
            "# the rule of spec " + section + "2.4",
            " * expiry (" + section + "8.4).",
            "(issue " + "13.3)",
            "Issue " + "15: the mac platform",
            "as issue #" + "4 asks");
    for (String line : cited) {
      assertThat(Citations.forbiddenCitations("f", line)).as(line).isNotEmpty();
    }
  }

  @Test
  void rfcSectionsAndReferenceLinksAreFine() {
    String section = "\u00a7";
    for (String line :
        List.of(
            "The OVSDB value encoding of RFC 7047 " + section + "5.1, both ways.",
            "(" + DOCS + "reference/codemode.md#limits)",
            "tissue 12 is not an issue number",
            "shared by every compute generation")) {
      assertThat(Citations.forbiddenCitations("f", line)).as(line).isEmpty();
    }
  }

  @Test
  void aMissingPageOrSectionIsFlaggedAndAPresentOneIsNot(@TempDir Path dir) throws IOException {
    Files.createDirectories(dir.resolve("docs/reference"));
    Files.writeString(
        dir.resolve("docs/reference/codemode.md"),
        "# CodeMode\n\n## Limits\n\n```\n## Not a heading\n```\n\n### `sum` and more\n\n## Limits\n");
    Citations c = new Citations(dir);
    assertThat(
            c.brokenDocsReferences(
                "f",
                DOCS
                    + "reference/codemode.md#limits, #sum-and-more and #limits-1)\n"
                    + DOCS
                    + "reference/codemode.md"))
        .isEmpty();
    assertThat(c.brokenDocsReferences("f", "see " + DOCS + "reference/codemode.md#not-a-heading"))
        .singleElement()
        .asString()
        .contains("no section with the anchor #not-a-heading");
    assertThat(c.brokenDocsReferences("f", "(" + DOCS + "reference/codemode.md#limits,\n * #gone)"))
        .singleElement()
        .asString()
        .contains("#gone");
    assertThat(c.brokenDocsReferences("f", DOCS + "reference/missing.md#x"))
        .singleElement()
        .asString()
        .contains("reference/missing.md does not exist");
  }

  @Test
  void markdownLinksIntoTheReferenceAreChecked(@TempDir Path dir) throws IOException {
    Files.createDirectories(dir.resolve("docs/reference"));
    Files.writeString(dir.resolve("docs/reference/policy.md"), "# Policy\n\n## Tokens\n");
    Path guide = dir.resolve(DOCS + "guide.md");
    Citations c = new Citations(dir);
    assertThat(
            c.brokenMarkdownLinks(
                guide, "[t](reference/policy.md#tokens) [o](other.md#anything) [w](https://x/#y)"))
        .isEmpty();
    assertThat(c.brokenMarkdownLinks(guide, "[t](reference/policy.md#cursors)"))
        .singleElement()
        .asString()
        .contains("names no section");
    Path page = dir.resolve("docs/reference/policy.md");
    assertThat(
            c.brokenMarkdownLinks(page, "a grammar `^[a-z]([a-z-]*[a-z])?$` is code, not a link"))
        .isEmpty();
    assertThat(c.brokenMarkdownLinks(page, "[g](../guide.md) [s](#tokens) [n](#nothing)"))
        .extracting(Citations.Finding::problem)
        .containsExactly(
            "link target ../guide.md does not exist", "link target #nothing names no section");
  }

  @Test
  void anchorsFollowGitHubsRules() {
    assertThat(Citations.slug("net.acl.add, net.acl.remove")).isEqualTo("netacladd-netaclremove");
    assertThat(Citations.slug("agentcompute's resources")).isEqualTo("agentcomputes-resources");
    assertThat(Citations.slug("The client (`ovn/`)")).isEqualTo("the-client-ovn");
    assertThat(Citations.slug("Hostile programs: work is charged in proportion"))
        .isEqualTo("hostile-programs-work-is-charged-in-proportion");
  }
}
