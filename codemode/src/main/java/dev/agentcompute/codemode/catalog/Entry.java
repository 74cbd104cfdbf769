package dev.agentcompute.codemode.catalog;

import dev.agentcompute.codemode.Capability;
import dev.agentcompute.codemode.Description;
import dev.agentcompute.codemode.SearchResult;
import dev.agentcompute.codemode.binding.Notation;
import dev.agentcompute.codemode.binding.TypeNode;
import java.util.List;

/**
 * One validated registration with its compiled input and output types.
 *
 * @param confirmationRequired every call needs a person's confirmation (registered so, or listed by
 *     the host)
 */
public record Entry(
    String id,
    String name,
    String summary,
    String description,
    List<String> searchTerms,
    TypeNode.Struct input,
    TypeNode.Struct output,
    Capability<?, ?> capability,
    boolean confirmationRequired) {

  public String signature() {
    return Notation.signature(name, input);
  }

  public SearchResult searchResult() {
    return new SearchResult(name, signature(), summary);
  }

  public Description describe() {
    return new Description(
        name,
        signature(),
        summary,
        description,
        Notation.inputShapes(input),
        Notation.outputShapes(output),
        capability.hints(),
        capability.title());
  }

  /** This entry with its confirmation requirement set (the host listed its id). */
  Entry requiringConfirmation() {
    return new Entry(id, name, summary, description, searchTerms, input, output, capability, true);
  }
}
