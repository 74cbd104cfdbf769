package dev.agentcompute.starlark.conformance;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Splits a test file into chunks as starlark-go's {@code chunkedfile} package does: chunks are
 * separated by lines {@code ---}, and a comment {@code ### "regexp"} expects an error on its line.
 */
final class ChunkReader {
  private static final Pattern SEPARATOR = Pattern.compile("\n---\n", Pattern.LITERAL);

  private ChunkReader() {}

  static List<Chunk> read(Path root, SuiteFile file, PrintStream warnings) throws IOException {
    String data = Files.readString(root.resolve(file.path()), StandardCharsets.UTF_8);
    if (file.whole()) {
      return List.of(new Chunk(file, 0, 1, data, List.of(), options(data)));
    }
    List<Chunk> chunks = new ArrayList<>();
    int lineNum = 1;
    String[] texts = SEPARATOR.split(data, -1);
    for (int i = 0; i < texts.length; i++) {
      String text = texts[i];
      int start = lineNum;
      List<Expectation> expects = new ArrayList<>();
      for (String line : text.split("\n", -1)) {
        int mark = line.indexOf("###");
        if (mark >= 0) {
          String rest = line.substring(mark + 3).strip();
          try {
            expects.add(new Expectation(lineNum, GoQuote.unquote(rest)));
          } catch (RuntimeException e) {
            warnings.printf(
                "warning: %s:%d: not a quoted regexp: %s%n", file.path(), lineNum, rest);
          }
        }
        lineNum++;
      }
      lineNum++; // the --- line
      String padded = "\n".repeat(start - 1) + text;
      chunks.add(new Chunk(file, i, start, padded, List.copyOf(expects), options(text)));
    }
    return chunks;
  }

  /** The {@code option:NAME} markers the text mentions, in a fixed order. */
  private static List<String> options(String text) {
    return Classifier.OPTIONS.stream().filter(o -> text.contains("option:" + o)).toList();
  }
}
