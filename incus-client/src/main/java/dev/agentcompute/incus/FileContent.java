package dev.agentcompute.incus;

/** A file read from an instance, with the ownership and mode the server reported. */
public record FileContent(byte[] content, int uid, int gid, int mode, String type) {}
