package dev.agentcompute.codemode.catalog;

import dev.agentcompute.codemode.Capability;
import dev.agentcompute.codemode.binding.GoQuote;
import dev.agentcompute.codemode.binding.GoStrings;
import dev.agentcompute.codemode.binding.Names;
import dev.agentcompute.codemode.binding.TypeCompiler;
import dev.agentcompute.codemode.binding.TypeNode;
import dev.agentcompute.codemode.protocol.GoJson;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** The immutable set of enabled capabilities, validated as a whole. */
public final class Catalog {

  public static final int MAX_REGISTRATIONS = 4096;
  public static final long MAX_METADATA_BYTES = 32L << 20;
  public static final int MAX_SEARCH_TERMS = 16;
  public static final int MAX_SEARCH_TERM_BYTES = 1024;
  public static final int MAX_RESPONSE_BYTES = 65_536;

  private final Map<String, Entry> byName;
  private final Map<String, Entry> byId;
  private final List<Entry> ordered;
  private final String generation;

  private Catalog(List<Entry> enabled) {
    Map<String, Entry> names = new HashMap<>();
    Map<String, Entry> ids = new HashMap<>();
    for (Entry e : enabled) {
      names.put(e.name(), e);
      ids.put(e.id(), e);
    }
    this.byName = Map.copyOf(names);
    this.byId = Map.copyOf(ids);
    List<Entry> sorted = new ArrayList<>(enabled);
    sorted.sort((a, b) -> compareBytes(a.name(), b.name()));
    this.ordered = List.copyOf(sorted);
    this.generation = generationOf(this.ordered);
  }

  /**
   * The catalogue generation of tokens (docs/reference/policy.md#tokens): a digest of everything
   * the enabled catalogue shows and enforces, so it changes when a reload changes the catalogue and
   * is the same on every instance that serves the same one.
   */
  public String generation() {
    return generation;
  }

  private static String generationOf(List<Entry> entries) {
    StringBuilder b = new StringBuilder();
    for (Entry e : entries) {
      b.append(e.id()).append('\0').append(e.name()).append('\0').append(e.signature());
      b.append('\0').append(e.summary()).append('\0').append(e.description());
      b.append('\0').append(e.describe().output()).append('\0').append(e.describe().hints());
      b.append('\0').append(e.describe().title()).append('\0').append(e.confirmationRequired());
      b.append('\n');
    }
    return dev.agentcompute.codemode.tokens.TokenSigner.digest(b.toString()).substring(0, 32);
  }

  /** Enabled entries in byte order of name. */
  public List<Entry> entries() {
    return ordered;
  }

  public Entry byName(String name) {
    return byName.get(name);
  }

  public Entry byId(String id) {
    return byId.get(id);
  }

  /**
   * Validates every registration and the catalog as a whole, then removes disabled ids. Returns the
   * diagnostics (each without the {@code invalid registration: } prefix) through {@code problems};
   * the catalog is null when any were found.
   */
  public static Catalog build(
      List<Capability<?, ?>> registrations, List<String> disabled, List<String> problems) {
    return build(registrations, disabled, List.of(), problems);
  }

  /**
   * As {@link #build(List, List, List)}, with the capability ids the host marks as requiring
   * confirmation (validated like disabled ids).
   */
  public static Catalog build(
      List<Capability<?, ?>> registrations,
      List<String> disabled,
      List<String> confirmationRequired,
      List<String> problems) {
    if (registrations.size() > MAX_REGISTRATIONS) {
      problems.add(
          "too many capabilities: "
              + registrations.size()
              + " registrations exceed the limit of "
              + MAX_REGISTRATIONS);
      return null;
    }
    List<Entry> entries = new ArrayList<>();
    long metadata = 0;
    for (Capability<?, ?> c : registrations) {
      metadata +=
          GoStrings.utf8Length(c.name())
              + GoStrings.utf8Length(c.summary())
              + GoStrings.utf8Length(c.description());
      for (String t : c.searchTerms()) {
        metadata += t == null ? 0 : GoStrings.utf8Length(t);
      }
      String problem = validate(c, entries);
      if (problem != null) {
        problems.add("capability " + GoQuote.quote(c.name()) + ": " + problem);
      }
    }
    if (metadata > MAX_METADATA_BYTES) {
      problems.add(
          "searchable metadata of "
              + metadata
              + " bytes exceeds the build budget of "
              + MAX_METADATA_BYTES
              + " bytes");
    }
    Map<String, Entry> ids = new LinkedHashMap<>();
    Map<String, Entry> names = new TreeMap<>();
    for (Entry e : entries) {
      if (ids.putIfAbsent(e.id(), e) != null) {
        problems.add(
            "capability "
                + GoQuote.quote(e.name())
                + ": duplicate capability id "
                + GoQuote.quote(e.id()));
      }
      if (names.putIfAbsent(e.name(), e) != null) {
        problems.add(
            "capability "
                + GoQuote.quote(e.name())
                + ": duplicate capability name "
                + GoQuote.quote(e.name()));
      }
    }
    for (String name : names.keySet()) {
      String[] segs = name.split("\\.");
      StringBuilder prefix = new StringBuilder(segs[0]);
      for (int i = 1; i < segs.length - 1; i++) {
        prefix.append('.').append(segs[i]);
        if (names.containsKey(prefix.toString())) {
          problems.add(
              "capability "
                  + GoQuote.quote(name)
                  + ": namespace collision: "
                  + GoQuote.quote(prefix.toString())
                  + " is both a capability and a namespace");
        }
      }
    }
    Set<String> disabledIds = new HashSet<>();
    for (String id : disabled) {
      if (!disabledIds.add(id)) {
        problems.add("disabled capability id " + GoQuote.quote(id) + " is listed more than once");
      } else if (!ids.containsKey(id)) {
        problems.add(
            "disabled capability id "
                + GoQuote.quote(id)
                + " does not match a registered capability");
      }
    }
    Set<String> confirmIds = new HashSet<>();
    for (String id : confirmationRequired) {
      if (!confirmIds.add(id)) {
        problems.add(
            "confirmation capability id " + GoQuote.quote(id) + " is listed more than once");
      } else if (!ids.containsKey(id)) {
        problems.add(
            "confirmation capability id "
                + GoQuote.quote(id)
                + " does not match a registered capability");
      }
    }
    if (!problems.isEmpty()) {
      return null;
    }
    List<Entry> enabled = new ArrayList<>();
    for (Entry e : entries) {
      if (!disabledIds.contains(e.id())) {
        enabled.add(confirmIds.contains(e.id()) ? e.requiringConfirmation() : e);
      }
    }
    for (Entry e : enabled) {
      long size = compactResultSize(e);
      if (12 + size + 20 > MAX_RESPONSE_BYTES) {
        problems.add(
            "capability "
                + GoQuote.quote(e.name())
                + ": search result of "
                + size
                + " bytes cannot fit the structured response cap; shorten its name, summary or input field names");
      }
    }
    return problems.isEmpty() ? new Catalog(enabled) : null;
  }

  /** Compact Go JSON size of {@code {"name":..,"signature":..,"summary":..}}. */
  public static long compactResultSize(Entry e) {
    return "{\"name\":,\"signature\":,\"summary\":}".length()
        + GoJson.stringSize(e.name())
        + GoJson.stringSize(e.signature())
        + GoJson.stringSize(e.summary());
  }

  private static String validate(Capability<?, ?> c, List<Entry> entries) {
    if (c.handler() == null) {
      return "handler must not be null (finish the capability with .handler(...))";
    }
    String nameProblem = Names.capabilityNameProblem(c.name());
    if (nameProblem != null) {
      return nameProblem;
    }
    if (!c.id().isEmpty() && GoStrings.hasSurroundingSpace(c.id())) {
      return "id " + GoQuote.quote(c.id()) + " must not have surrounding whitespace";
    }
    if (c.summary().isEmpty()) {
      return "summary must not be empty";
    }
    if (GoStrings.hasSurroundingSpace(c.summary())) {
      return "summary must not have surrounding whitespace";
    }
    if (!c.description().isEmpty() && GoStrings.hasSurroundingSpace(c.description())) {
      return "description must not have surrounding whitespace";
    }
    if (!c.title().isEmpty() && GoStrings.hasSurroundingSpace(c.title())) {
      return "title must not have surrounding whitespace";
    }
    if (c.searchTerms().size() > MAX_SEARCH_TERMS) {
      return "at most "
          + MAX_SEARCH_TERMS
          + " search terms are allowed, got "
          + c.searchTerms().size();
    }
    int termBytes = 0;
    for (String t : c.searchTerms()) {
      if (t == null || t.isEmpty()) {
        return "search terms must not be empty";
      }
      if (GoStrings.hasSurroundingSpace(t)) {
        return "search term " + GoQuote.quote(t) + " must not have surrounding whitespace";
      }
      termBytes += GoStrings.utf8Length(t);
    }
    if (termBytes > MAX_SEARCH_TERM_BYTES) {
      return "search terms total " + termBytes + " bytes, more than " + MAX_SEARCH_TERM_BYTES;
    }
    TypeNode.Struct in;
    TypeNode.Struct out;
    try {
      in = TypeCompiler.compile(c.input(), TypeCompiler.Role.INPUT);
    } catch (TypeCompiler.TypeException e) {
      return "input: " + e.getMessage();
    }
    try {
      out = TypeCompiler.compile(c.output(), TypeCompiler.Role.OUTPUT);
    } catch (TypeCompiler.TypeException e) {
      return "output: " + e.getMessage();
    }
    String id = c.id().isEmpty() ? c.name() : c.id();
    String description = c.description().isEmpty() ? c.summary() : c.description();
    entries.add(
        new Entry(
            id,
            c.name(),
            c.summary(),
            description,
            Collections.unmodifiableList(c.searchTerms()),
            in,
            out,
            c,
            c.confirmation() == dev.agentcompute.codemode.Confirmation.REQUIRED));
    return null;
  }

  /** Byte-order comparison of the UTF-8 encodings (Go string order). */
  public static int compareBytes(String a, String b) {
    byte[] x = a.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] y = b.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    return java.util.Arrays.compareUnsigned(x, y);
  }
}
