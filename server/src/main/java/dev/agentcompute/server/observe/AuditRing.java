package dev.agentcompute.server.observe;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * The most recent audit records in memory, for the admin API and the console: a bounded ring (the
 * oldest record leaves when a new one comes past {@link #CAPACITY}). The logger and the audit file
 * remain the record of everything; this only answers "what happened lately".
 */
public final class AuditRing {
  public static final int CAPACITY = 1000;

  private static final AuditRing RECENT = new AuditRing(CAPACITY);

  private final int capacity;
  private final ArrayDeque<AuditEntry> entries = new ArrayDeque<>();

  AuditRing(int capacity) {
    this.capacity = capacity;
  }

  /** The process's ring, fed by the audit log's write point. */
  public static AuditRing recent() {
    return RECENT;
  }

  public synchronized void add(AuditEntry entry) {
    if (entries.size() == capacity) {
      entries.removeFirst();
    }
    entries.addLast(entry);
  }

  /** Up to {@code limit} records, newest first, of {@code subject} when one is given. */
  public synchronized List<AuditEntry> newest(Optional<String> subject, int limit) {
    List<AuditEntry> out = new ArrayList<>();
    for (Iterator<AuditEntry> it = entries.descendingIterator();
        it.hasNext() && out.size() < limit; ) {
      AuditEntry e = it.next();
      if (subject.isEmpty() || subject.get().equals(e.subject())) {
        out.add(e);
      }
    }
    return out;
  }
}
