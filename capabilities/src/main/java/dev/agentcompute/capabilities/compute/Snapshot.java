package dev.agentcompute.capabilities.compute;

import java.time.Instant;

/** An instance snapshot. */
public record Snapshot(String name, Instant createdAt) {}
