package dev.agentcompute.incus;

/** A DHCP lease (or static allocation) handed out by a managed network. */
public record NetworkLease(
    String hostname, String hwaddr, String address, String type, String location, String project) {}
