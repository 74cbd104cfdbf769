package dev.agentcompute.capabilities.model;

/**
 * What a guest needs to know about the network a NIC is on (Windows guests set their IPv4 MTU from
 * it and activate licensing when it has NAT, spec §2.4).
 */
public record NicSettings(int mtu, boolean nat) {}
