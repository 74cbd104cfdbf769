package dev.agentcompute.starlark.conformance;

/**
 * How the suite is run. {@code CODEMODE}: the dialect CodeMode runs (no {@code set}, {@code while},
 * top-level control, global reassignment or recursion, only json and math predeclared); a chunk
 * that needs more is adapted or skipped. {@code FULL}: every chunk unmodified, with the dialect
 * options and test helpers it asks for.
 */
enum Profile {
  CODEMODE,
  FULL;

  String id() {
    return name().toLowerCase();
  }
}
