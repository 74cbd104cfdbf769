package dev.agentcompute.codemode;

/**
 * What a person is asked to approve.
 *
 * @param capability the capability's dotted name
 * @param arguments the call's canonical arguments, Go-quoted, at most 256 bytes
 * @param summary the capability's summary
 * @param message {@code Allow <capability>(<arguments>)? <summary>}
 */
public record ConfirmationPrompt(
    String capability, String arguments, String summary, String message) {}
