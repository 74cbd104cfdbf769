package dev.agentcompute.rego.conformance;

import dev.agentcompute.rego.Rego;
import dev.agentcompute.rego.RegoException;
import dev.agentcompute.rego.RegoOptions;
import dev.agentcompute.rego.RegoResult;
import dev.agentcompute.rego.value.Json;
import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.RegoValue;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * {@code dev/rego --eval QUERY [-d FILE_OR_DIR]... [-i INPUT.json] [--data DATA.json] [--strict]
 * [--steps N]}: compiles the modules, evaluates the query and prints each result row as a JSON
 * object on its own line ({@code undefined} when there is none).
 */
final class EvalTool {
  private EvalTool() {}

  static int run(List<String> args, PrintStream out, PrintStream err) {
    if (args.isEmpty()) {
      err.println("dev/rego --eval: missing query");
      return 2;
    }
    String query = args.get(0);
    Map<String, String> modules = new TreeMap<>();
    RegoOptions options = RegoOptions.defaults();
    try {
      for (int i = 1; i < args.size(); i++) {
        String a = args.get(i);
        switch (a) {
          case "-d" -> addModules(Path.of(args.get(++i)), modules);
          case "-i" ->
              options = options.withInput(Json.parse(Files.readString(Path.of(args.get(++i)))));
          case "--data" ->
              options =
                  options.withData(
                      (RegoObject) Json.parse(Files.readString(Path.of(args.get(++i)))));
          case "--strict" -> options = options.withStrictBuiltinErrors(true);
          case "--steps" -> options = options.withMaxSteps(Long.parseLong(args.get(++i)));
          default -> {
            err.println("dev/rego --eval: unknown argument " + a);
            return 2;
          }
        }
      }
      RegoResult r = Rego.compile(modules).prepare(query).eval(options);
      if (r.isUndefined()) {
        out.println("undefined");
      }
      for (int i = 0; i < r.rows().size(); i++) {
        RegoObject.Builder b = new RegoObject.Builder();
        for (Map.Entry<String, RegoValue> e : r.row(i).entrySet()) {
          b.put(e.getKey(), e.getValue());
        }
        out.println(Json.write(b.build()));
      }
      return 0;
    } catch (RegoException e) {
      err.println(e.getMessage());
      return 1;
    } catch (IOException | Json.ParseError | ClassCastException | IndexOutOfBoundsException e) {
      err.println("dev/rego --eval: " + e.getMessage());
      return 2;
    }
  }

  private static void addModules(Path p, Map<String, String> modules) throws IOException {
    if (Files.isDirectory(p)) {
      try (Stream<Path> s = Files.walk(p)) {
        for (Path f : s.filter(x -> x.toString().endsWith(".rego")).sorted().toList()) {
          modules.put(f.toString(), Files.readString(f));
        }
      }
    } else {
      modules.put(p.toString(), Files.readString(p));
    }
  }
}
