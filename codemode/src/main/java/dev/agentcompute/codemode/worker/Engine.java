package dev.agentcompute.codemode.worker;

import dev.agentcompute.codemode.protocol.Frame;
import dev.agentcompute.codemode.protocol.Manifest;
import java.util.List;
import java.util.Map;

/** Runs one program in the worker: a fresh interpreter and fresh budgets per call. */
interface Engine {

  /** Forwards a bound native call to the host and returns its result value. */
  interface Bridge {
    Object call(String capabilityId, Map<String, Object> arguments)
        throws Aborted, java.io.IOException;
  }

  /** The host aborted the outstanding call; the program unwinds without a final frame. */
  final class Aborted extends Exception {
    public Aborted() {
      super("native call aborted by the host", null, false, false);
    }
  }

  /**
   * A worker-owned terminal failure: code as in final_error, optional safe detail, and the
   * explanation that names the fix (sent only when the exec asks for explanations).
   */
  final class Failure extends Exception {
    private final String code;
    private final String detail;
    private final String explanation;

    public Failure(String code, String detail, String explanation) {
      super(code, null, false, false);
      this.code = code;
      this.detail = detail;
      this.explanation = explanation;
    }

    public String explanation() {
      return explanation;
    }

    public String code() {
      return code;
    }

    public String detail() {
      return detail;
    }
  }

  /** Runs the program and returns main's value in the process-neutral domain. */
  Object run(String source, Frame.ExecLimits limits, List<Manifest.Item> manifest, Bridge bridge)
      throws Failure, Aborted, java.io.IOException;
}
