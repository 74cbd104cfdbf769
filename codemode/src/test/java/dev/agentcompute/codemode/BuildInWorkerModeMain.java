package dev.agentcompute.codemode;

/**
 * A main that (wrongly) builds a server without serving the worker first; run with the marker set.
 */
public final class BuildInWorkerModeMain {

  private BuildInWorkerModeMain() {}

  public static void main(String[] args) {
    try {
      CodeMode.builder(Fixtures.allowAll()).register(Fixtures.status()).build().close();
      System.out.println("built");
    } catch (CodeModeException e) {
      System.out.println(e.getMessage());
    }
  }
}
