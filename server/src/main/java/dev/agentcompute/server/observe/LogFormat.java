package dev.agentcompute.server.observe;

/** The two log line formats operators choose from ({@code --log-format}). */
public enum LogFormat {
  TEXT,
  JSON
}
