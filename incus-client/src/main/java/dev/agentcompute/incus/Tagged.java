package dev.agentcompute.incus;

/** A value read together with its ETag, to send back in {@code If-Match} on update. */
public record Tagged<T>(T value, String etag) {}
