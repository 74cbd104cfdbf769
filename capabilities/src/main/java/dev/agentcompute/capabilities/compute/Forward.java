package dev.agentcompute.capabilities.compute;

/** A port forward's external side: listen address and port. */
public record Forward(String address, int port) {}
