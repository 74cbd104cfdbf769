package dev.agentcompute.server.config;

import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.authz.rego.RegoAccessPolicy;
import dev.agentcompute.codemode.authz.rego.RegoAuthorizer;
import dev.agentcompute.codemode.authz.rego.RegoPolicyError;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The {@code authorization.rego} section: its files read (relative to the configuration file) and
 * compiled while the configuration is validated, so {@code validate} reports invalid Rego, and a
 * reload with a broken policy is refused while the running one keeps serving.
 */
final class RegoPolicyFiles {
  private RegoPolicyFiles() {}

  static Optional<ServerConfig.Authorization> load(
      RuntimeConfig.Authorization section, Function<String, Path> resolve, List<String> problems) {
    if (section == null || section.rego() == null) {
      return Optional.empty();
    }
    RuntimeConfig.Rego rego = section.rego();
    int before = problems.size();
    if (rego.decision() == null || rego.decision().isBlank()) {
      problems.add("authorization.rego.decision is required");
    }
    if (rego.discover() != null && rego.discover().isBlank()) {
      problems.add("authorization.rego.discover must not be empty when set");
    }
    if (rego.files() == null || rego.files().isEmpty()) {
      problems.add("authorization.rego.files must name at least one policy file");
    }
    if (problems.size() > before) {
      return Optional.empty();
    }
    List<Path> files = new ArrayList<>();
    Map<String, String> modules = new LinkedHashMap<>();
    for (String name : rego.files()) {
      if (name == null || name.isBlank()) {
        problems.add("authorization.rego.files entries must not be empty");
        continue;
      }
      Path file = resolve.apply(name);
      files.add(file);
      try {
        modules.put(name, Files.readString(file, StandardCharsets.UTF_8));
      } catch (NoSuchFileException e) {
        problems.add("authorization.rego.files: " + file + ": no such file");
      } catch (IOException e) {
        problems.add("authorization.rego.files: " + file + ": " + e.getMessage());
      }
    }
    if (problems.size() > before) {
      return Optional.empty();
    }
    try {
      RegoAuthorizer execute =
          RegoAuthorizer.create(Context.background(), rego.decision(), modules);
      RegoAccessPolicy policy =
          rego.discover() == null
              ? RegoAccessPolicy.of(execute)
              : RegoAccessPolicy.of(execute, execute.forDecision(rego.discover()));
      return Optional.of(
          new ServerConfig.Authorization(
              rego.decision(), Optional.ofNullable(rego.discover()), List.copyOf(files), policy));
    } catch (RegoPolicyError e) {
      problems.add("authorization.rego: " + e.getMessage());
      return Optional.empty();
    } catch (Exception e) {
      problems.add("authorization.rego: " + e.getMessage());
      return Optional.empty();
    }
  }
}
