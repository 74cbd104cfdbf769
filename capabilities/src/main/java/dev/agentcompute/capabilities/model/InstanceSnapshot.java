package dev.agentcompute.capabilities.model;

import java.time.Instant;

/** An instance snapshot. */
public record InstanceSnapshot(String name, Instant createdAt) {}
