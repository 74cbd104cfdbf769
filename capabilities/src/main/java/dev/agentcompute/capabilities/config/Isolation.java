package dev.agentcompute.capabilities.config;

import java.util.Set;

/**
 * Who may reach which sandbox ({@code sandbox.access}, {@code sandbox.operators}). By default every
 * identity manages every sandbox (a trusted-operator service). With {@code owner}, a capability
 * that names another identity's sandbox answers exactly as for a missing one, except for the
 * operators, who reach every sandbox; generated sandbox names then carry a random suffix so that
 * guessing one is pointless.
 */
public record Isolation(boolean owner, Set<String> operators) {
  public Isolation {
    operators = Set.copyOf(operators);
  }

  /** Every identity manages every sandbox. */
  public static Isolation shared() {
    return new Isolation(false, Set.of());
  }

  /** Whether {@code caller} may reach a sandbox that {@code owner} created. */
  public boolean mayReach(String caller, String owner) {
    return !this.owner || operators.contains(caller) || caller.equals(owner);
  }
}
