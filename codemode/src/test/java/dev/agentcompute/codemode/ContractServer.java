package dev.agentcompute.codemode;

import dev.agentcompute.codemode.authz.AccessDenied;
import dev.agentcompute.codemode.authz.AccessRequest;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/** A server with capabilities that exercise every execution rule. */
final class ContractServer {

  record FailIn(String mode, Optional<String> message) {}

  record Ok(boolean ok) {}

  record ScoreOut(double score) {}

  record BigOut(@Unsigned long n) {}

  record SizeIn(long size) {}

  record BlobOut(String data) {}

  record UnitsIn(@Unsigned byte level, int offset, float ratio, byte[] bytes) {}

  record UnitsOut(long level, long offset, double ratio, byte[] bytes) {}

  record Deep(List<List<List<String>>> nest) {}

  record SlowIn(long millis) {}

  record NarrowIn(boolean on, @Nullable List<@Nullable String> names) {}

  record NarrowOut(
      int i,
      short s,
      @Unsigned byte ub,
      float f,
      @Nullable String none,
      Optional<String> absent,
      @OmitEmpty Optional<String> omitted,
      List<String> nilList,
      Map<String, Long> emptyMap,
      @Nullable List<@Nullable String> names) {}

  /** The value of a program whose {@code main()} body is {@code body}. */
  static Object run(Server s, Subject user, String body) throws CodeModeException {
    return s.execute(Context.background(), user, "def main():\n" + body.indent(4));
  }

  /** The client text of a program whose {@code main()} body is {@code body}, which must fail. */
  static String failure(Server s, Subject user, String body) {
    try {
      run(s, user, body);
    } catch (CodeModeException e) {
      return e.clientText();
    }
    throw new AssertionError("execution succeeded: " + body);
  }

  final List<AccessRequest> requests = new CopyOnWriteArrayList<>();
  final CountDownLatch slowStarted = new CountDownLatch(1);
  volatile boolean slowInterrupted;

  Server build(Limits limits) throws CodeModeException {
    return build(limits, Options.builder());
  }

  /** With more options (a clock, an audit sink); the policy and limits are this server's. */
  Server build(Limits limits, Options.Draft options) throws CodeModeException {
    Policy policy =
        new Policy() {
          @Override
          public void authorize(Context ctx, AccessRequest req) throws Exception {
            if (req.kind() != AccessRequest.Kind.EXECUTE) {
              return;
            }
            requests.add(req);
            Object key = req.arguments().get("key");
            if ("forbidden".equals(key)) {
              throw new AccessDenied();
            }
            if ("policy-error".equals(key)) {
              throw new Exception("backend down");
            }
            if ("policy-throw".equals(key)) {
              throw new IllegalStateException("bug");
            }
          }

          @Override
          public String scopeKey(Context ctx, Subject subject) {
            return subject.id();
          }
        };
    return CodeMode.builder(options.policy(policy).limits(limits).build())
        .register(Fixtures.lookup())
        .register(Fixtures.status())
        .register(
            Capability.named("records.query", Fixtures.QueryIn.class, Fixtures.QueryOut.class)
                .summary("Query records with a composite filter.")
                .handler(
                    (c, s, in) -> new Fixtures.QueryOut(in.filter().owner(), in.tags().size())))
        .register(
            Capability.named("errors.fail", FailIn.class, Ok.class)
                .summary("Fail.")
                .handler(
                    (c, s, in) -> {
                      String m = in.message().orElse("");
                      switch (in.mode()) {
                        case "plain" -> throw new Exception(m);
                        case "agent" -> throw new AgentError(m);
                        case "wrapped" -> throw new Exception("secret wrapper", new AgentError(m));
                        case "throw" -> throw new IllegalStateException(m);
                        default -> {
                          return new Ok(true);
                        }
                      }
                    }))
        .register(
            Capability.named("errors.score", Fixtures.Empty.class, ScoreOut.class)
                .summary("NaN.")
                .handler((c, s, in) -> new ScoreOut(Double.NaN)))
        .register(
            Capability.named("errors.big", Fixtures.Empty.class, BigOut.class)
                .summary("Big.")
                .handler((c, s, in) -> new BigOut(-1L)))
        .register(
            Capability.named("blob.get", SizeIn.class, BlobOut.class)
                .summary("Blob.")
                .handler((c, s, in) -> new BlobOut("x".repeat((int) in.size()))))
        .register(
            Capability.named("units.set", UnitsIn.class, UnitsOut.class)
                .summary("Units.")
                .handler(
                    (c, s, in) ->
                        new UnitsOut(
                            Byte.toUnsignedLong(in.level()), in.offset(), in.ratio(), in.bytes())))
        .register(
            Capability.named("deep.get", Fixtures.Empty.class, Deep.class)
                .summary("Deep.")
                .handler((c, s, in) -> new Deep(List.of(List.of(List.of("x"))))))
        .register(
            Capability.named("slow.wait", SlowIn.class, Ok.class)
                .summary("Slow.")
                .handler(
                    (c, s, in) -> {
                      slowStarted.countDown();
                      try {
                        Thread.sleep(in.millis());
                      } catch (InterruptedException e) {
                        slowInterrupted = true;
                        throw e;
                      }
                      return new Ok(true);
                    }))
        .register(
            Capability.named("narrow.get", NarrowIn.class, NarrowOut.class)
                .summary("Narrow.")
                .handler(
                    (c, s, in) ->
                        new NarrowOut(
                            -7,
                            (short) 300,
                            (byte) 200,
                            0.1f,
                            null,
                            Optional.empty(),
                            Optional.empty(),
                            null,
                            Map.of(),
                            in.names())))
        .register(
            Capability.named("rich.get", Fixtures.Empty.class, Fixtures.RichOut.class)
                .summary("Rich.")
                .handler(
                    (c, s, in) ->
                        new Fixtures.RichOut(
                            List.of(new Fixtures.Item("t", 1.5)),
                            Map.of("b", true, "a", false),
                            new Fixtures.Detail("v", Optional.empty()),
                            null,
                            Optional.empty(),
                            new byte[] {(byte) 255, 1})))
        .build();
  }
}
