package dev.agentcompute.server.config;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The configuration the server is running with, swapped atomically on reload, plus what the last
 * reload left pending or refused. Components that can take changes while running subscribe;
 * everything else reads {@link #current()} when it needs a value.
 */
public final class LiveConfig {
  /** A key whose new value on disk waits for a restart, and why. */
  public record Pending(String key, String reason) {}

  /** A refused version: its digest and every problem found. The old version keeps serving. */
  public record Rejected(String digest, List<String> problems, Instant at) {}

  /**
   * @param config the values in force (restart-only keys keep their startup values)
   * @param source the newest accepted file version
   * @param catalogueDigest SHA-256 of the newest accepted image catalogue
   * @param pending keys changed on disk that need a restart
   * @param rejected the last refused version, if the newest file on disk is invalid
   */
  public record State(
      ServerConfig config,
      LoadedConfig source,
      String catalogueDigest,
      Instant appliedAt,
      List<Pending> pending,
      Optional<Rejected> rejected) {}

  private final ServerConfig startup;
  private final AtomicReference<State> state;
  private final List<Consumer<State>> listeners = new CopyOnWriteArrayList<>();

  public LiveConfig(LoadedConfig initial, String catalogueDigest, Instant now) {
    this.startup = initial.config();
    this.state =
        new AtomicReference<>(
            new State(
                initial.config(), initial, catalogueDigest, now, List.of(), Optional.empty()));
  }

  public State current() {
    return state.get();
  }

  /** Called after every change of state (applied, pending or rejected), on the reload thread. */
  public void subscribe(Consumer<State> listener) {
    listeners.add(listener);
  }

  ServerConfig startup() {
    return startup;
  }

  /** Puts an accepted version in force. */
  State accept(LoadedConfig next, String catalogueDigest, Instant now) {
    State s =
        new State(
            ConfigChanges.live(startup, next.config()),
            next,
            catalogueDigest,
            now,
            List.copyOf(ConfigChanges.pending(startup, next.config())),
            Optional.empty());
    state.set(s);
    listeners.forEach(l -> l.accept(s));
    return s;
  }

  /** Records a refused version; the values in force do not change. */
  State reject(Rejected rejected) {
    State s =
        state.updateAndGet(
            old ->
                new State(
                    old.config(),
                    old.source(),
                    old.catalogueDigest(),
                    old.appliedAt(),
                    old.pending(),
                    Optional.of(rejected)));
    listeners.forEach(l -> l.accept(s));
    return s;
  }
}
