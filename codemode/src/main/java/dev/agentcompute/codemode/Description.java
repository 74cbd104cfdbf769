package dev.agentcompute.codemode;

import java.util.List;

/** The full contract of one capability as returned by describe. */
public record Description(String name, String signature, String summary, String description,
                          List<FieldShape> input, List<FieldShape> output) {

    public Description {
        input = input == null ? List.of() : List.copyOf(input);
        output = output == null ? List.of() : List.copyOf(output);
    }
}
