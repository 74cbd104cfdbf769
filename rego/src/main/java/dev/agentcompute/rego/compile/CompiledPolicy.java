package dev.agentcompute.rego.compile;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Compiled modules: the rule tree under {@code data}. Immutable after compilation and shared by
 * every query prepared from it, apart from {@link #cache}: compiled regular expressions and globs
 * that builtins share across evaluations (bounded by {@link #CACHE_LIMIT}).
 */
public record CompiledPolicy(
    RuleNode root, int nodeCount, List<String> files, ConcurrentHashMap<String, Object> cache) {

  public static final int CACHE_LIMIT = 1000;
}
