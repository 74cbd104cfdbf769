package dev.agentcompute.codemode;

/** One compact search hit: exact dotted name, invocation-only signature, summary. */
public record SearchResult(String name, String signature, String summary) {}
