package dev.agentcompute.incus;

/**
 * {@code GET /1.0/cluster}: whether this daemon is part of a cluster, and under which member name.
 */
public record ClusterInfo(String serverName, boolean enabled) {}
