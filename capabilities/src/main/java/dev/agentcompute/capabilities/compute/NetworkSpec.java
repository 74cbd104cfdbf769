package dev.agentcompute.capabilities.compute;

import dev.agentcompute.capabilities.net.NetworkKind;

/** A network to create: logical name, fabric, optional explicit CIDR, and its services. */
public record NetworkSpec(String name, NetworkKind kind, String cidr, boolean dhcp, boolean nat, boolean dns) {}
