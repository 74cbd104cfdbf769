package dev.agentcompute.incus;

/** {@code /1.0/images/aliases/{name}}: an alias and the fingerprint it points at. */
public record ImageAlias(String name, String description, String target, String type) {}
