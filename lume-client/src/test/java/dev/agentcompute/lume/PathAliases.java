package dev.agentcompute.lume;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Where a double keeps what a real Mac has at fixed paths: a command naming macOS's path (say
 * {@code /usr/local/bin/cua-driver}, the production default) runs the double's shim instead, so a
 * client configured with the real defaults, such as the server, drives the doubles unchanged. Each
 * path is replaced whole (not inside a longer name or path) in one pass, longest first.
 */
final class PathAliases {
  private final Map<String, String> targets;
  private final Pattern pattern;

  PathAliases(Map<String, String> targets) {
    this.targets = new LinkedHashMap<>(targets);
    this.pattern =
        targets.isEmpty()
            ? null
            : Pattern.compile(
                targets.keySet().stream()
                        .sorted(Comparator.comparingInt(String::length).reversed())
                        .map(Pattern::quote)
                        .collect(Collectors.joining("|", "(?<![\\w./-])(", ")"))
                    + "(?![\\w.-])");
  }

  /** The command as the double's shell runs it. */
  String apply(String command) {
    if (pattern == null) {
      return command;
    }
    Matcher m = pattern.matcher(command);
    return m.replaceAll(r -> Matcher.quoteReplacement(targets.get(r.group(1))));
  }
}
