package dev.agentcompute.codemode.authz.rego;

import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.authz.AccessRequest;
import dev.agentcompute.rego.Rego;
import dev.agentcompute.rego.RegoCompileException;
import dev.agentcompute.rego.RegoEvalException;
import dev.agentcompute.rego.RegoOptions;
import dev.agentcompute.rego.RegoPolicy;
import dev.agentcompute.rego.value.RegoValue;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;

/**
 * The calls into the Rego evaluator that catch its exceptions, translated to {@link
 * RegoPolicyError}. They live apart from {@link RegoAuthorizer} because the JVM loads a catch
 * clause's exception class when it verifies the class holding it: kept here, RegoAuthorizer loads
 * without {@code dev.agentcompute:rego} and {@link RegoRuntime} can say what is missing.
 */
final class RegoCalls {

  private RegoCalls() {}

  static RegoPolicy compile(Context ctx, SortedMap<String, String> files)
      throws RegoPolicyError, CodeModeException {
    try {
      return Rego.compile(files);
    } catch (RegoCompileException e) {
      if (ctx.isDone()) {
        throw ContextErrors.of(ctx);
      }
      throw new RegoPolicyError("rego: " + e.getMessage(), e);
    }
  }

  static List<RegoValue> decisionPath(String decision) throws RegoPolicyError {
    try {
      return Rego.parseDataRef(decision);
    } catch (RegoCompileException e) {
      throw new RegoPolicyError(
          "rego: invalid decision \"" + decision.strip() + "\": " + e.problems().get(0).message(),
          e);
    }
  }

  static Optional<RegoValue> eval(
      Context ctx, RegoPolicy.Decision prepared, AccessRequest request, long maxSteps)
      throws RegoPolicyError, CodeModeException {
    try {
      return prepared.eval(
          RegoOptions.defaults()
              .withInput(RegoInput.of(request))
              .withStrictBuiltinErrors(true)
              .withMaxSteps(maxSteps)
              .withCancellation(ctx::isDone));
    } catch (RegoEvalException e) {
      if (ctx.isDone()) {
        throw ContextErrors.of(ctx);
      }
      throw new RegoPolicyError("rego: " + e.getMessage(), e);
    } catch (IllegalArgumentException e) {
      // Arguments CodeMode never produces (non-finite, too deep): a policy failure, not a crash.
      throw new RegoPolicyError("rego: invalid input: " + e.getMessage(), e);
    }
  }
}
