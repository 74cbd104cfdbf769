package example.inventory;

import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.authz.rego.RegoAuthorizer;
import java.util.Map;

/** Prints what building the Rego authorizer says in a project without dev.agentcompute:rego. */
public final class RegoMissing {

  public static void main(String[] args) {
    try {
      RegoAuthorizer.create(
          Context.background(), "data.inventory.allow", Map.of("p.rego", "package inventory\n"));
      System.out.println("created");
    } catch (Exception e) {
      System.out.println(e.getMessage());
    }
  }
}
