package dev.agentcompute.server.architecture;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds what a repository that stands alone must not contain: citations of documents outside it (a
 * sibling {@code shared} checkout, numbered sections of a specification it does not hold, issue
 * numbers of a tracker a reader of the code does not have), and links to {@code docs/} pages or
 * their sections that do not exist. The rules a reader needs are in docs/reference/, and a citation
 * must point there.
 */
final class Citations {
  /** One finding: where, and what is wrong. */
  record Finding(String file, int line, String problem) {
    @Override
    public String toString() {
      return file + ":" + line + ": " + problem;
    }
  }

  private static final String SECTION = "\u00a7";

  /**
   * The forbidden citations. The needles are assembled so this file does not match itself: the
   * repository is scanned including its tests.
   */
  private static final List<Map.Entry<Pattern, String>> FORBIDDEN =
      List.of(
          Map.entry(
              Pattern.compile(Pattern.quote(".." + "/shared")),
              "a path into a checkout beside the repository"),
          Map.entry(
              Pattern.compile("shared/(spec|notes)\\b"),
              "a document of a checkout beside the repository"),
          Map.entry(
              Pattern.compile("\\bspec " + SECTION),
              "a numbered section of a specification the repository does not hold"),
          Map.entry(
              Pattern.compile("(?<!RFC \\d{1,5} )(?<!RFC \\d{1,5}, )" + SECTION + "\\s?\\d"),
              "a numbered section of a document the repository does not hold (RFC sections are"
                  + " fine)"),
          Map.entry(
              Pattern.compile("(?i)\\bissues? #?\\d+"),
              "an issue number of a tracker the repository does not hold"));

  /** A page under the docs directory, optionally with {@code #anchor}, written anywhere as text. */
  private static final Pattern DOCS_REF =
      Pattern.compile("(?<![\\w/.-])docs/([\\w./-]+?\\.md)(#[\\w-]+)?");

  /** Further anchors of the same page: {@code page.md#a, #b and #c}. */
  private static final Pattern MORE_ANCHORS =
      Pattern.compile("\\G(?:[\\s,;*]|and\\b)*(?<![\\w/])#([a-z0-9][\\w-]*)");

  /** A Markdown link or image: {@code [text](target)}. */
  private static final Pattern MD_LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

  private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern HTML_ANCHOR =
      Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"", Pattern.CASE_INSENSITIVE);

  /** Directories that are not the project's own text: build output, tools, state, upstream data. */
  private static final Set<String> SKIPPED_DIRECTORIES =
      Set.of(".git", ".state", "target", "node_modules", "testdata");

  private static final long LARGEST_TEXT_FILE = 4L << 20;

  private final Path root;
  private final Map<Path, Set<String>> anchors = new HashMap<>();

  Citations(Path root) {
    this.root = root;
  }

  /**
   * The repository root above {@code start}: the nearest directory whose pom.xml lists the server
   * module (a test runs from its module's directory).
   */
  static Path repositoryRoot(Path start) throws IOException {
    for (Path dir = start.toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path pom = dir.resolve("pom.xml");
      if (Files.isRegularFile(pom) && Files.readString(pom).contains("<module>server</module>")) {
        return dir;
      }
    }
    throw new IllegalStateException("no parent pom.xml listing the server module above " + start);
  }

  /** Every text file of the repository that is the project's own. */
  List<Path> files() throws IOException {
    List<Path> files = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(root)) {
      walk.filter(Files::isRegularFile)
          .filter(p -> !skipped(root.relativize(p)))
          .sorted()
          .forEach(files::add);
    }
    List<Path> text = new ArrayList<>();
    for (Path f : files) {
      if (Files.size(f) <= LARGEST_TEXT_FILE && isText(Files.readAllBytes(f))) {
        text.add(f);
      }
    }
    return text;
  }

  private static boolean skipped(Path relative) {
    for (int i = 0; i < relative.getNameCount() - 1; i++) {
      String name = relative.getName(i).toString();
      if (SKIPPED_DIRECTORIES.contains(name) || (name.startsWith(".") && !name.equals(".github"))) {
        return true;
      }
    }
    return false;
  }

  private static boolean isText(byte[] bytes) {
    for (int i = 0; i < Math.min(bytes.length, 8192); i++) {
      if (bytes[i] == 0) {
        return false;
      }
    }
    return true;
  }

  /** The forbidden citations in {@code text}, {@code file} naming it in the findings. */
  static List<Finding> forbiddenCitations(String file, String text) {
    List<Finding> found = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      for (Map.Entry<Pattern, String> rule : FORBIDDEN) {
        Matcher m = rule.getKey().matcher(lines[i]);
        if (m.find()) {
          found.add(
              new Finding(
                  file,
                  i + 1,
                  "\""
                      + m.group()
                      + "\" is "
                      + rule.getValue()
                      + "; cite docs/reference/ instead"));
        }
      }
    }
    return found;
  }

  /** The references to docs pages in {@code text} whose page or anchor is missing. */
  List<Finding> brokenDocsReferences(String file, String text) throws IOException {
    List<Finding> found = new ArrayList<>();
    Matcher m = DOCS_REF.matcher(text);
    while (m.find()) {
      int line = lineOf(text, m.start());
      Path page = root.resolve("docs").resolve(m.group(1)).normalize();
      if (!Files.isRegularFile(page)) {
        found.add(new Finding(file, line, "docs/" + m.group(1) + " does not exist"));
        continue;
      }
      List<String> wanted = new ArrayList<>();
      if (m.group(2) != null) {
        wanted.add(m.group(2).substring(1));
        Matcher more = MORE_ANCHORS.matcher(text);
        more.region(m.end(), text.length());
        while (more.find()) {
          wanted.add(more.group(1));
          more.region(more.end(), text.length());
        }
      }
      for (String anchor : wanted) {
        if (!anchorsOf(page).contains(anchor)) {
          found.add(
              new Finding(
                  file, line, "docs/" + m.group(1) + " has no section with the anchor #" + anchor));
        }
      }
    }
    return found;
  }

  /**
   * The Markdown links of the page {@code page} that lead to a missing file or section: every link
   * of a docs/reference/ page, and every link of another page into docs/reference/.
   */
  List<Finding> brokenMarkdownLinks(Path page, String text) throws IOException {
    List<Finding> found = new ArrayList<>();
    Path reference = root.resolve("docs").resolve("reference");
    boolean inReference = page.startsWith(reference);
    Matcher m = MD_LINK.matcher(withoutCode(text));
    while (m.find()) {
      String target = m.group(1);
      if (target.matches("^[a-z][a-z0-9+.-]*:.*")) {
        continue; // http:, https:, mailto:
      }
      int hash = target.indexOf('#');
      String path = hash < 0 ? target : target.substring(0, hash);
      String anchor = hash < 0 ? null : target.substring(hash + 1);
      Path resolved = path.isEmpty() ? page : page.getParent().resolve(path).normalize();
      if (!inReference && !resolved.startsWith(reference)) {
        continue;
      }
      int line = lineOf(text, m.start());
      String file = root.relativize(page).toString();
      if (!Files.exists(resolved)) {
        found.add(new Finding(file, line, "link target " + target + " does not exist"));
      } else if (anchor != null
          && resolved.toString().endsWith(".md")
          && !anchorsOf(resolved).contains(anchor)) {
        found.add(new Finding(file, line, "link target " + target + " names no section"));
      }
    }
    return found;
  }

  /**
   * {@code text} with code spans and fenced blocks blanked (same length), so only prose links
   * count.
   */
  static String withoutCode(String text) {
    StringBuilder b = new StringBuilder(text);
    Matcher fence = Pattern.compile("(?ms)^\\s*```.*?^\\s*```").matcher(text);
    while (fence.find()) {
      blank(b, fence.start(), fence.end());
    }
    Matcher span = Pattern.compile("`[^`\\n]*`").matcher(b.toString());
    while (span.find()) {
      blank(b, span.start(), span.end());
    }
    return b.toString();
  }

  private static void blank(StringBuilder b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b.charAt(i) != '\n') {
        b.setCharAt(i, ' ');
      }
    }
  }

  private Set<String> anchorsOf(Path page) throws IOException {
    Set<String> known = anchors.get(page);
    if (known == null) {
      known = anchors(Files.readString(page, StandardCharsets.UTF_8));
      anchors.put(page, known);
    }
    return known;
  }

  /**
   * The anchors GitHub gives a Markdown page's headings (lowercased; characters other than letters,
   * digits, spaces, hyphens and underscores dropped; spaces made hyphens; a repeated one numbered
   * {@code -1}, {@code -2}...), plus explicit {@code <a id>} anchors. Headings inside code fences
   * are not headings.
   */
  static Set<String> anchors(String markdown) {
    Set<String> result = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean fenced = false;
    for (String line : markdown.split("\n", -1)) {
      String stripped = line.strip();
      if (stripped.startsWith("```") || stripped.startsWith("~~~")) {
        fenced = !fenced;
        continue;
      }
      if (fenced) {
        continue;
      }
      Matcher a = HTML_ANCHOR.matcher(line);
      while (a.find()) {
        result.add(a.group(1));
      }
      Matcher h = HEADING.matcher(line);
      if (h.matches()) {
        String slug = slug(h.group(2));
        int n = seen.merge(slug, 1, Integer::sum) - 1;
        result.add(n == 0 ? slug : slug + "-" + n);
      }
    }
    return result;
  }

  static String slug(String heading) {
    String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1"); // a link's text
    StringBuilder b = new StringBuilder();
    text.toLowerCase(Locale.ROOT)
        .codePoints()
        .forEach(
            c -> {
              if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                b.appendCodePoint(c);
              } else if (c == ' ') {
                b.append('-');
              }
            });
    return b.toString();
  }

  private static int lineOf(String text, int offset) {
    int line = 1;
    for (int i = 0; i < offset; i++) {
      if (text.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }

  /** The file's text, or empty when it is not UTF-8. */
  static Optional<String> read(Path file) {
    try {
      return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
