package dev.agentcompute.codemode;

/** One root field of a capability's input or output: {@code {"name","type","required"}}. */
public record FieldShape(String name, String type, boolean required) {}
