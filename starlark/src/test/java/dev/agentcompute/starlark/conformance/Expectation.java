package dev.agentcompute.starlark.conformance;

/**
 * A {@code ### "regexp"} comment: the chunk must fail with an error matching {@code regexp} (RE2
 * syntax, which Java's regexps accept for everything the suite uses) reported at {@code line}.
 */
record Expectation(int line, String regexp) {}
