package dev.agentcompute.starlark.conformance;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Decides, per profile, whether a chunk runs as it is, runs adapted, or is skipped, and why.
 *
 * <p>Under the codemode profile a chunk that exists to test a dialect option CodeMode turns off
 * ({@code option:while} and the like) is skipped. A chunk that merely uses something CodeMode lacks
 * ({@code set}, a test helper, {@code json.encode_indent}) is adapted: its top-level statements
 * that need the missing feature are removed, then, to a fixpoint, the statements that use what
 * those bound or mutated. A chunk is skipped instead when the feature is not adaptable, when the
 * whole file needs it, when an expected error sits in a removed statement, or when no check is
 * left.
 */
final class Classifier {
  /** The dialect options of starlark-go's test harness ({@code option:NAME} in a chunk). */
  static final List<String> OPTIONS =
      List.of(
          "set", "while", "toplevelcontrol", "globalreassign", "loadbindsglobally", "recursion");

  /** Options whose chunks the codemode profile skips rather than adapts. */
  private static final Set<String> SKIP_OPTIONS =
      Set.of("while", "toplevelcontrol", "globalreassign", "loadbindsglobally", "recursion");

  /** Predeclared names of the test harness that CodeMode lacks. */
  private static final List<String> HELPERS =
      List.of("hasfields", "fibonacci", "struct", "gensym", "set");

  private static final Set<String> ADAPTABLE =
      Set.of("set", "hasfields", "fibonacci", "struct", "gensym", "json_encode_indent");

  /** Names that adaptation never treats as tainted (the assert module's). */
  private static final Set<String> PROTECTED = Set.of("assert", "freeze");

  private Classifier() {}

  static Plan classify(Chunk c, Profile profile) {
    Set<String> features = new TreeSet<>(c.file().fileFeatures());
    if (!c.file().mode().equals("exec")) {
      // parse and resolve chunks: their options are the only dialect input
      if (profile == Profile.CODEMODE && c.options().stream().anyMatch(o -> !o.equals("set"))) {
        return Plan.skip("option:" + String.join(",", c.options()), features);
      }
      return Plan.run(c, features);
    }
    List<StatementGroup> groups;
    try {
      groups = StatementGroup.of(StatementScanner.scan(c.source()));
    } catch (StatementScanner.ScanError e) {
      groups = null;
      textualFeatures(c.source(), features);
    }
    if (groups != null) {
      Set<String> chunkBound = bound(groups);
      for (StatementGroup g : groups) {
        for (String name : HELPERS) {
          if (g.used.contains(name) && !chunkBound.contains(name)) {
            g.features.add(name);
          }
        }
        features.addAll(g.features);
        if (g.isLoad
            && g.tokens.stream()
                .anyMatch(
                    t ->
                        t.kind() == Tok.Kind.STRING
                            && StatementGroup.unquote(t.text()).equals("time.star"))) {
          features.add("time");
        }
      }
    }
    if (profile == Profile.FULL) {
      return Plan.run(c, features);
    }
    Set<String> opts = new TreeSet<>(c.options());
    opts.retainAll(SKIP_OPTIONS);
    if (!opts.isEmpty()) {
      return Plan.skip("option:" + String.join(",", opts), features);
    }
    if (features.isEmpty()) {
      return Plan.run(c, features);
    }
    String need = String.join(",", features);
    if (!c.file().fileFeatures().isEmpty() || !ADAPTABLE.containsAll(features) || groups == null) {
      return Plan.skip("needs " + need, features);
    }
    return adapt(c, groups, features, need);
  }

  private static Plan adapt(
      Chunk c, List<StatementGroup> groups, Set<String> features, String need) {
    Set<String> chunkBound = bound(groups);
    Set<Integer> removed = new TreeSet<>();
    Set<String> tainted = new HashSet<>();
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int k = 0; k < groups.size(); k++) {
        StatementGroup g = groups.get(k);
        if (removed.contains(k) || g.isLoad) {
          continue;
        }
        if (intersects(g.features, features) || intersects(g.used, tainted)) {
          removed.add(k);
          for (String n : union(g.bound, g.mutated)) {
            if (chunkBound.contains(n) && !PROTECTED.contains(n)) {
              tainted.add(n);
            }
          }
          changed = true;
        }
      }
    }
    String[] lines = c.source().split("\n", -1);
    for (int k : removed) {
      StatementGroup g = groups.get(k);
      if (c.expects().stream().anyMatch(e -> g.spans(e.line()))) {
        return Plan.skip("needs " + need + " (in an expected-error statement)", features);
      }
      for (int ln = g.start; ln <= g.end; ln++) {
        lines[ln - 1] = "";
      }
    }
    boolean checksLeft = false;
    for (int k = 0; k < groups.size(); k++) {
      StatementGroup g = groups.get(k);
      if (!removed.contains(k)
          && !g.isLoad
          && (g.used.contains("assert") || c.expects().stream().anyMatch(e -> g.spans(e.line())))) {
        checksLeft = true;
      }
    }
    if (!checksLeft) {
      return Plan.skip("needs " + need + " (nothing left after adaptation)", features);
    }
    return new Plan(
        Plan.Status.ADAPTED,
        "removed " + removed.size() + " statement(s) using " + need,
        String.join("\n", lines),
        features);
  }

  /** For a chunk the scanner cannot read: find the helpers by their names. */
  private static void textualFeatures(String src, Set<String> features) {
    for (String name : List.of("hasfields", "fibonacci", "struct", "gensym")) {
      if (Pattern.compile("(?<![.\\w])" + name + "\\b").matcher(src).find()) {
        features.add(name);
      }
    }
    if (Pattern.compile("(?<![.\\w])set\\s*\\(").matcher(src).find()) {
      features.add("set");
    }
    if (src.contains("encode_indent")) {
      features.add("json_encode_indent");
    }
  }

  private static Set<String> bound(List<StatementGroup> groups) {
    Set<String> out = new HashSet<>();
    groups.forEach(g -> out.addAll(g.bound));
    return out;
  }

  private static boolean intersects(Set<String> a, Set<String> b) {
    return a.stream().anyMatch(b::contains);
  }

  private static List<String> union(Set<String> a, Set<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}
