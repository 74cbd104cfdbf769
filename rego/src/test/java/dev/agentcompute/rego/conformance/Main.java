package dev.agentcompute.rego.conformance;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * {@code dev/rego --test DIR}: runs every case of every {@code *.yaml} file under DIR (laid out as
 * OPA's {@code v1/test/cases/testdata}), prints one line per failing or skipped case and a summary
 * {@code N passed, M failed, K skipped}; exits 1 if any case failed. {@code --eval} (see {@link
 * EvalTool}) evaluates a query ad hoc.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws IOException {
    if (args.length >= 1 && args[0].equals("--eval")) {
      System.exit(EvalTool.run(List.of(args).subList(1, args.length), System.out, System.err));
    }
    if (args.length != 2 || !args[0].equals("--test")) {
      System.err.println(
          "usage: dev/rego --test DIR | dev/rego --eval QUERY [-d FILE.rego]... [-i INPUT.json] [--strict]");
      System.exit(2);
    }
    System.exit(runAll(Path.of(args[1]), System.out).failed() == 0 ? 0 : 1);
  }

  /** How many cases passed, failed and were skipped. */
  record Tally(int passed, int failed, int skipped) {}

  static Tally runAll(Path dir, PrintStream out) throws IOException {
    YAMLMapper yaml =
        YAMLMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();
    List<Path> files;
    try (Stream<Path> s = Files.walk(dir)) {
      files =
          s.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
              .sorted()
              .toList();
    }
    int passed = 0;
    int failed = 0;
    int skipped = 0;
    for (Path f : files) {
      String rel = dir.relativize(f).toString();
      List<ComplianceCase> cases = new ArrayList<>();
      try {
        Map<?, ?> doc = yaml.readValue(f.toFile(), Map.class);
        for (Object c : (List<?>) doc.get("cases")) {
          @SuppressWarnings("unchecked")
          Map<String, Object> m = (Map<String, Object>) c;
          cases.add(ComplianceCase.of(rel, m));
        }
      } catch (RuntimeException e) {
        out.println("FAIL " + rel + ": (file) unreadable: " + e.getMessage());
        failed++;
        continue;
      }
      for (ComplianceCase c : cases) {
        Outcome o = CaseRunner.run(c);
        switch (o.status()) {
          case PASSED -> passed++;
          case FAILED -> {
            failed++;
            out.println("FAIL " + rel + ": " + c.note() + ": " + o.why());
          }
          case SKIPPED -> {
            skipped++;
            out.println("SKIP " + rel + ": " + c.note() + ": " + o.why());
          }
        }
      }
    }
    out.println(passed + " passed, " + failed + " failed, " + skipped + " skipped");
    return new Tally(passed, failed, skipped);
  }
}
