package dev.agentcompute.rego.conformance;

import dev.agentcompute.rego.Rego;
import dev.agentcompute.rego.RegoCompileException;
import dev.agentcompute.rego.RegoEvalException;
import dev.agentcompute.rego.RegoException;
import dev.agentcompute.rego.RegoOptions;
import dev.agentcompute.rego.RegoPolicy;
import dev.agentcompute.rego.RegoQuery;
import dev.agentcompute.rego.RegoResult;
import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.Values;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/** Runs one compliance case the way OPA's case runner does. */
final class CaseRunner {
  private CaseRunner() {}

  /** Builtins this evaluator leaves out on purpose; a case needing one is skipped, not failed. */
  private static final Pattern UNAVAILABLE =
      Pattern.compile(
          "\\b(time\\.[a-z_]+|http\\.send|net\\.lookup_ip_addr|rand\\.intn|uuid\\.[a-z0-9_]+|opa\\.runtime)\\s*\\(");

  static Outcome run(ComplianceCase c) {
    for (String m : c.modules()) {
      var matcher = UNAVAILABLE.matcher(m);
      if (matcher.find()) {
        return Outcome.skip(
            "uses " + matcher.group(1) + ", a nondeterministic builtin removed by design");
      }
    }
    try {
      Map<String, String> files = new LinkedHashMap<>();
      for (int i = 0; i < c.modules().size(); i++) {
        files.put("test-" + i + ".rego", c.modules().get(i));
      }
      RegoPolicy policy = Rego.compile(files);
      RegoQuery query = policy.prepare(c.query());
      RegoOptions options =
          RegoOptions.defaults()
              .withData((RegoObject) Values.fromJava(c.data()))
              .withStrictBuiltinErrors(c.strictError())
              .withMaxSteps(50_000_000);
      if (c.inputTerm() != null) {
        options = options.withInput(Rego.parseValue(c.inputTerm()));
      } else if (c.hasInput()) {
        options = options.withInput(Values.fromJava(c.input()));
      }
      RegoResult result = query.eval(options);
      if (c.wantsError()) {
        return Outcome.fail(
            "want error "
                + describeWant(c)
                + ", got "
                + (result.isUndefined() ? "undefined" : "a result"));
      }
      if (c.wantResult() == null) {
        return Outcome.skip("case states neither want_result nor want_error");
      }
      String diff = ResultMatch.compare(result, c.wantResult(), c.sortBindings());
      return diff == null ? Outcome.PASS : Outcome.fail(diff);
    } catch (RegoCompileException e) {
      String code = e.problems().isEmpty() ? "" : e.problems().get(0).code();
      return checkError(c, code, e.getMessage());
    } catch (RegoEvalException e) {
      return checkError(c, e.code(), e.getMessage());
    } catch (RegoException e) {
      return checkError(c, "", e.getMessage());
    } catch (RuntimeException | StackOverflowError e) {
      return Outcome.fail("Java exception " + e);
    }
  }

  private static String describeWant(ComplianceCase c) {
    return (c.wantErrorCode() == null ? "" : c.wantErrorCode() + " ")
        + (c.wantError() == null || c.wantError().isEmpty() ? "" : "\"" + c.wantError() + "\"");
  }

  private static Outcome checkError(ComplianceCase c, String code, String message) {
    if (!c.wantsError()) {
      return Outcome.fail("unexpected error: " + message.replace('\n', ' '));
    }
    if (c.wantErrorCode() != null && !c.wantErrorCode().equals(code)) {
      return Outcome.fail(
          "want " + describeWant(c) + ", got " + code + ": " + message.replace('\n', ' '));
    }
    if (c.wantError() != null && !message.contains(c.wantError())) {
      return Outcome.fail(
          "want error containing \"" + c.wantError() + "\", got: " + message.replace('\n', ' '));
    }
    return Outcome.PASS;
  }
}
