package dev.agentcompute.incus;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One address in use somewhere ({@code GET /1.0/network-allocations}); {@code address} may be a
 * CIDR.
 */
public record NetworkAllocation(
    @JsonProperty("addresses") String address,
    String usedBy,
    String type,
    boolean nat,
    String hwaddr,
    String network) {}
