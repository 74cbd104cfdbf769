package dev.agentcompute.codemode;

import java.util.List;
import java.util.Objects;

/**
 * One callable operation, registered with {@link Builder#register}. Input and output are record
 * types whose components follow the supported type rules (see docs/codemode.md).
 *
 * @param id stable deployment and policy identity; empty means {@code name}
 * @param name dotted Starlark name, e.g. {@code records.lookup}
 * @param summary compact text used by search and shown in results
 * @param description detail shown by describe; empty means {@code summary}
 * @param searchTerms discovery-only phrases (never returned, never callable)
 * @param hints what the capability does, for people and clients; descriptive only
 * @param title a presentation title shown by describe; empty means none
 * @param confirmation whether each call needs a person's confirmation
 */
public record Capability<I extends Record, O extends Record>(
    String id,
    String name,
    String summary,
    String description,
    List<String> searchTerms,
    Hints hints,
    String title,
    Confirmation confirmation,
    Class<I> input,
    Class<O> output,
    Handler<I, O> handler) {

  public Capability {
    id = id == null ? "" : id;
    name = name == null ? "" : name;
    summary = summary == null ? "" : summary;
    description = description == null ? "" : description;
    searchTerms = searchTerms == null ? List.of() : List.copyOf(searchTerms);
    hints = hints == null ? Hints.defaults() : hints;
    title = title == null ? "" : title;
    confirmation = confirmation == null ? Confirmation.NOT_REQUIRED : confirmation;
  }

  /** Starts a capability named {@code name} (its id defaults to the name). */
  public static <I extends Record, O extends Record> Draft<I, O> named(
      String name, Class<I> input, Class<O> output) {
    return new Draft<>(name, input, output);
  }

  /** Fluent construction; {@link #handler} finishes it. */
  public static final class Draft<I extends Record, O extends Record> {
    private final String name;
    private final Class<I> input;
    private final Class<O> output;
    private String id = "";
    private String summary = "";
    private String description = "";
    private List<String> searchTerms = List.of();
    private Hints hints = Hints.defaults();
    private String title = "";
    private Confirmation confirmation = Confirmation.NOT_REQUIRED;

    private Draft(String name, Class<I> input, Class<O> output) {
      this.name = name;
      this.input = input;
      this.output = output;
    }

    public Draft<I, O> id(String id) {
      this.id = id;
      return this;
    }

    public Draft<I, O> summary(String summary) {
      this.summary = summary;
      return this;
    }

    public Draft<I, O> description(String description) {
      this.description = description;
      return this;
    }

    public Draft<I, O> searchTerms(String... terms) {
      this.searchTerms = List.of(terms);
      return this;
    }

    /** What the capability does (MCP ToolAnnotations semantics); descriptive only. */
    public Draft<I, O> hints(Hints hints) {
      this.hints = hints;
      return this;
    }

    /** A presentation title, shown by describe. */
    public Draft<I, O> title(String title) {
      this.title = title;
      return this;
    }

    /** Whether each call needs a person's confirmation before the handler runs. */
    public Draft<I, O> confirmation(Confirmation confirmation) {
      this.confirmation = confirmation;
      return this;
    }

    public Capability<I, O> handler(Handler<I, O> handler) {
      return new Capability<>(
          id,
          name,
          summary,
          description,
          searchTerms,
          hints,
          title,
          confirmation,
          input,
          output,
          handler);
    }
  }

  /** The effective policy identity. */
  public String effectiveId() {
    return id.isEmpty() ? name : id;
  }

  @Override
  public String toString() {
    return "Capability[" + Objects.toString(name) + "]";
  }
}
