package dev.agentcompute.capabilities.model;

/** A port forward's external side: listen address and port. */
public record PortForward(String address, int port) {}
