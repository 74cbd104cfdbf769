package dev.agentcompute.codemode;

/**
 * Receives one {@link NativeCallRecord} per native call that reached the host (the server routes it
 * to its audit logger and metrics). Called on the dispatching thread after the call ended; keep it
 * short and thread-safe. What it throws is ignored.
 */
@FunctionalInterface
public interface AuditSink {

  AuditSink NONE = record -> {};

  void nativeCall(NativeCallRecord record);
}
