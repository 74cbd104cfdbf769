package dev.agentcompute.codemode.authz.rego;

import dev.agentcompute.codemode.Context;
import java.util.Map;

/**
 * Prints what {@link RegoAuthorizer#create} says; {@link RegoOptionalTest} runs it without rego.
 */
public final class RegoMissingMain {

  private RegoMissingMain() {}

  public static void main(String[] args) {
    try {
      RegoAuthorizer.create(Context.background(), "data.x.allow", Map.of("p.rego", "package x\n"));
      System.out.println("created");
    } catch (Throwable t) {
      System.out.println(t.getClass().getName() + ": " + t.getMessage());
    }
  }
}
