import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.authz.AccessDenied;
import dev.agentcompute.codemode.authz.AccessRequest;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.authz.rego.RegoAuthorizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * bench/rego: compile time of a realistic 20-rule policy, and RegoAuthorizer.authorize latency
 * (p50, p99) on a mix of realistic requests after warm-up. Prints figures only.
 *   java RegoBench POLICY.rego [SAMPLES]
 */
public final class RegoBench {
  public static void main(String[] args) throws Exception {
    String src = Files.readString(Path.of(args[0]));
    int samples = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
    Map<String, String> modules = Map.of("policy.rego", src);
    Context ctx = Context.background();

    // Compile time: first (cold) and the median of later compilations (warm).
    long t0 = System.nanoTime();
    RegoAuthorizer authz = RegoAuthorizer.create(ctx, "data.codemode.authz.allow", modules);
    long cold = System.nanoTime() - t0;
    long[] compiles = new long[200];
    for (int i = 0; i < compiles.length; i++) {
      long s = System.nanoTime();
      RegoAuthorizer.create(ctx, "data.codemode.authz.allow", modules);
      compiles[i] = System.nanoTime() - s;
    }
    Arrays.sort(compiles);

    List<AccessRequest> requests =
        List.of(
            req("alice", "instances.entry.delete", "instances.delete", Map.of("instance", "prod-1")),
            req("bob", "records.entry.lookup", "records.lookup", Map.of("key", "alpha", "limit", 20L)),
            req("bob", "records.entry.lookup", "records.lookup", Map.of("key", "secret")),
            req("carol", "instances.entry.exec", "instances.exec",
                Map.of("instance", "sb-payments-7", "command", "ls -la /srv")),
            req("carol", "instances.entry.exec", "instances.exec",
                Map.of("instance", "sb-payments-7", "command", "sudo reboot")),
            req("dave", "instances.entry.create", "instances.create", Map.of("instance", "sb-payments-1")),
            req("erin", "images.entry.publish", "images.publish", Map.of("image", "base-os:v12")),
            req("mallory", "health.entry.status", "health.status", Map.of()));
    int allowed = 0;
    for (AccessRequest r : requests) {
      allowed += decide(authz, ctx, r) ? 1 : 0;
    }

    // Warm-up: several seconds, so C2 has compiled the evaluator before measuring.
    long warmEnd = System.nanoTime() + 8_000_000_000L;
    int n = 0;
    while (System.nanoTime() < warmEnd) {
      decide(authz, ctx, requests.get(n++ % requests.size()));
    }
    long[] lat = new long[samples];
    for (int i = 0; i < samples; i++) {
      AccessRequest r = requests.get(i % requests.size());
      long s = System.nanoTime();
      decide(authz, ctx, r);
      lat[i] = System.nanoTime() - s;
    }
    Arrays.sort(lat);
    System.out.printf("policy: %d rules, %d requests in the mix (%d allowed)%n",
        src.lines().filter(l -> l.matches("^[a-z_].*(:=|if|contains).*")).count(), requests.size(), allowed);
    System.out.printf("compile: first %.2f ms, warm median %.3f ms%n", cold / 1e6, compiles[compiles.length / 2] / 1e6);
    System.out.printf("authorize: p50 %.1f us, p99 %.1f us, mean %.1f us (%d samples after %d warm-up calls)%n",
        lat[samples / 2] / 1e3, lat[(int) (samples * 0.99)] / 1e3, Arrays.stream(lat).average().orElse(0) / 1e3,
        samples, n);
  }

  private static boolean decide(RegoAuthorizer a, Context ctx, AccessRequest r) throws Exception {
    try {
      a.authorize(ctx, r);
      return true;
    } catch (AccessDenied d) {
      return false;
    }
  }

  private static AccessRequest req(String subject, String id, String name, Map<String, Object> args) {
    return new AccessRequest(AccessRequest.Kind.EXECUTE, new Subject(subject), id, name, args);
  }
}
