package dev.agentcompute.capabilities.model;

/** A network to create: logical name, fabric, optional explicit CIDR, and its services. */
public record NetworkPlan(
    String name, NetworkKind kind, String cidr, boolean dhcp, boolean nat, boolean dns) {}
