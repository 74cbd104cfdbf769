package dev.agentcompute.capabilities.model;

/**
 * What a guest needs to know about the network a NIC is on (Windows guests set their IPv4 MTU from
 * it and activate licensing when it has NAT, docs/reference/capabilities.md#windows-guests).
 */
public record NicSettings(int mtu, boolean nat) {}
