package dev.agentcompute.starlark.conformance;

import java.util.List;

/**
 * One chunk of a test file: the text between two {@code ---} lines, padded with blank lines so that
 * line numbers in errors are those of the file.
 *
 * @param options the {@code option:NAME} dialect options the chunk mentions, in {@link
 *     Classifier#OPTIONS} order
 */
record Chunk(
    SuiteFile file,
    int index,
    int startLine,
    String source,
    List<Expectation> expects,
    List<String> options) {

  String id() {
    return file.path() + "#" + index + "@L" + startLine;
  }
}
