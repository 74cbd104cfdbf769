package dev.agentcompute.codemode;

import java.util.List;

/**
 * The full contract of one capability as returned by describe.
 *
 * @param hints what the capability does, for people and clients (descriptive only)
 * @param title a presentation title; empty when none was declared
 */
public record Description(
    String name,
    String signature,
    String summary,
    String description,
    List<FieldShape> input,
    List<FieldShape> output,
    Hints hints,
    String title) {

  public Description {
    input = input == null ? List.of() : List.copyOf(input);
    output = output == null ? List.of() : List.copyOf(output);
    hints = hints == null ? Hints.defaults() : hints;
    title = title == null ? "" : title;
  }

  /** A description with default hints and no title. */
  public Description(
      String name,
      String signature,
      String summary,
      String description,
      List<FieldShape> input,
      List<FieldShape> output) {
    this(name, signature, summary, description, input, output, Hints.defaults(), "");
  }
}
