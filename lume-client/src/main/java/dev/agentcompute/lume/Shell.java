package dev.agentcompute.lume;

/** POSIX shell quoting, the way the original builds remote command lines. */
final class Shell {
  private Shell() {}

  /** {@code 'text'} with each {@code '} written as {@code '"'"'}. */
  static String quote(String text) {
    return "'" + text.replace("'", "'\"'\"'") + "'";
  }
}
