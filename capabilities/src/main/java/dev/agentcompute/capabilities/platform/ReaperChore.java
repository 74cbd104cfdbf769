package dev.agentcompute.capabilities.platform;

import java.util.List;

/**
 * Background work a platform keeps running beside the reaper, with its lifecycle: started and
 * closed with it, and swept in each of its scans while this server holds the reaper lease (the
 * Incus warm pool: filled here, its abandoned members deleted by the lease holder).
 */
public interface ReaperChore extends AutoCloseable {
  /** Starts the chore's own background work (when the reaper starts). */
  void start();

  /** One sweep, in the reaper's scan; returns what it deleted. */
  List<String> sweep();

  /** Stops the background work; makes no platform call afterwards. */
  @Override
  void close();
}
