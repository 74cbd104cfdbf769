package dev.agentcompute.server.config;

/**
 * Something that takes a new configuration while running, in two phases so a reload is all or
 * nothing: {@link #prepare} does the work that can fail (and refuses the version by throwing {@link
 * ConfigException}); {@link Prepared#commit} makes it effective once every applier prepared
 * successfully.
 */
public interface LiveApplier {
  /** The work prepared for one version. */
  interface Prepared {
    Prepared NOTHING =
        new Prepared() {
          @Override
          public void commit() {}

          @Override
          public void abandon() {}
        };

    void commit();

    void abandon();
  }

  /**
   * @param next the values that would be in force (restart-only keys at their startup values)
   */
  Prepared prepare(ServerConfig next, String catalogueDigest);
}
