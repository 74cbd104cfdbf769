package dev.agentcompute.capabilities.mac;

import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.Cancellation;
import dev.agentcompute.lume.LumeException;

/**
 * Turns lume-client's failures into the services' {@link BackendException} kinds (missing VM, host
 * unreachable, anything else), and an interrupt into the caller's cancellation.
 */
final class MacFailures {
  private MacFailures() {}

  interface Call<T> {
    T get() throws LumeException, InterruptedException;
  }

  interface Action {
    void run() throws LumeException, InterruptedException;
  }

  static <T> T call(Call<T> call) {
    try {
      return call.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw Cancellation.canceled(e);
    } catch (LumeException e) {
      throw translate(e);
    }
  }

  static void run(Action action) {
    call(
        () -> {
          action.run();
          return null;
        });
  }

  static BackendException translate(LumeException e) {
    BackendException.Kind kind =
        switch (e) {
          case LumeException.NotFound n -> BackendException.Kind.NOT_FOUND;
          case LumeException.Unavailable u -> BackendException.Kind.UNAVAILABLE;
          default -> BackendException.Kind.FAILED;
        };
    return new BackendException(kind, e.getMessage(), e);
  }
}
