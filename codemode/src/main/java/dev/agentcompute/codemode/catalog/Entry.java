package dev.agentcompute.codemode.catalog;

import dev.agentcompute.codemode.Capability;
import dev.agentcompute.codemode.Description;
import dev.agentcompute.codemode.SearchResult;
import dev.agentcompute.codemode.binding.Notation;
import dev.agentcompute.codemode.binding.TypeNode;
import java.util.List;

/** One validated registration with its compiled input and output types. */
public record Entry(String id, String name, String summary, String description, List<String> searchTerms,
                    TypeNode.Struct input, TypeNode.Struct output, Capability<?, ?> capability) {

    public String signature() {
        return Notation.signature(name, input);
    }

    public SearchResult searchResult() {
        return new SearchResult(name, signature(), summary);
    }

    public Description describe() {
        return new Description(name, signature(), summary, description, Notation.inputShapes(input),
                Notation.outputShapes(output));
    }
}
