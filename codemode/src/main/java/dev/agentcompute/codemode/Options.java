package dev.agentcompute.codemode;

import dev.agentcompute.codemode.authz.Authorizer;
import dev.agentcompute.codemode.authz.Policy;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;

/**
 * Configuration of one server build. The policy is required (there is no default); disabled
 * capabilities are stable ids removed when the catalog is built; zero limits take defaults.
 *
 * @param confirmationRequired capability ids each of whose calls needs a person's confirmation, as
 *     if registered {@link Confirmation#REQUIRED} (the server's {@code sandbox.confirm}); unknown
 *     or repeated ids fail the build
 * @param tokens the token secret and used-confirmation memory; share one across rebuilds ({@link
 *     Tokens#random()} when null)
 * @param clock the time tokens expire by and idle workers age by (the system clock when null)
 * @param audit receives a record of every native call ({@link AuditSink#NONE} when null)
 * @param agentGuidance off keeps the original's texts; on, failures a program causes say what to
 *     fix (position, limit and value, did-you-mean), a failed execution names the state-changing
 *     calls that already succeeded, and execute's description adds the calling convention
 * @param workerIsolation how worker JVMs are confined ({@link WorkerIsolation#NONE} when null, so
 *     an embedding host opts in; the agentcompute server asks for {@link WorkerIsolation#AUTO})
 */
public record Options(
    Policy policy,
    List<String> disabledCapabilities,
    Limits limits,
    List<String> confirmationRequired,
    Tokens tokens,
    InstantSource clock,
    AuditSink audit,
    boolean agentGuidance,
    WorkerIsolation workerIsolation) {

  public Options {
    disabledCapabilities =
        disabledCapabilities == null ? List.of() : List.copyOf(disabledCapabilities);
    limits = limits == null ? Limits.unset() : limits;
    confirmationRequired =
        confirmationRequired == null ? List.of() : List.copyOf(confirmationRequired);
    tokens = tokens == null ? Tokens.random() : tokens;
    clock = clock == null ? InstantSource.system() : clock;
    audit = audit == null ? AuditSink.NONE : audit;
    workerIsolation = workerIsolation == null ? WorkerIsolation.NONE : workerIsolation;
  }

  /** The original three options; the others take their defaults. */
  public Options(Policy policy, List<String> disabledCapabilities, Limits limits) {
    this(policy, disabledCapabilities, limits, null, null, null, null, false, null);
  }

  /**
   * Without agent guidance (the original's texts), and workers confined as {@link
   * WorkerIsolation#NONE} (an embedding host opts in).
   */
  public Options(
      Policy policy,
      List<String> disabledCapabilities,
      Limits limits,
      List<String> confirmationRequired,
      Tokens tokens,
      InstantSource clock,
      AuditSink audit) {
    this(
        policy,
        disabledCapabilities,
        limits,
        confirmationRequired,
        tokens,
        clock,
        audit,
        false,
        null);
  }

  public static Draft builder() {
    return new Draft();
  }

  /** Fluent construction of {@link Options}. */
  public static final class Draft {
    private Policy policy;
    private final List<String> disabled = new ArrayList<>();
    private final List<String> confirm = new ArrayList<>();
    private Limits limits = Limits.unset();
    private Tokens tokens;
    private InstantSource clock;
    private AuditSink audit;
    private boolean agentGuidance;
    private WorkerIsolation workerIsolation;

    private Draft() {}

    /** Failures that say what to fix, and execute's calling convention (see {@link Options}). */
    public Draft agentGuidance(boolean on) {
      this.agentGuidance = on;
      return this;
    }

    public Draft policy(Policy policy) {
      this.policy = policy;
      return this;
    }

    /** Execute-time authorizer; discovery stays unrestricted ({@link Policy#of}). */
    public Draft authorizer(Authorizer authorizer) {
      this.policy = authorizer == null ? null : Policy.of(authorizer);
      return this;
    }

    public Draft disable(String... capabilityIds) {
      disabled.addAll(List.of(capabilityIds));
      return this;
    }

    /** Every call of these capability ids needs a person's confirmation. */
    public Draft requireConfirmation(String... capabilityIds) {
      confirm.addAll(List.of(capabilityIds));
      return this;
    }

    public Draft limits(Limits limits) {
      this.limits = limits;
      return this;
    }

    /** The token secret and used-confirmation memory ({@link Tokens#withSecret}). */
    public Draft tokens(Tokens tokens) {
      this.tokens = tokens;
      return this;
    }

    /** The clock of token expiry and worker idle time (tests inject one). */
    public Draft clock(InstantSource clock) {
      this.clock = clock;
      return this;
    }

    /** Receives a record of every native call (the server's audit log and metrics). */
    public Draft audit(AuditSink audit) {
      this.audit = audit;
      return this;
    }

    /** How worker JVMs are confined (the server's {@code workers.isolation}). */
    public Draft workerIsolation(WorkerIsolation isolation) {
      this.workerIsolation = isolation;
      return this;
    }

    public Options build() {
      return new Options(
          policy, disabled, limits, confirm, tokens, clock, audit, agentGuidance, workerIsolation);
    }
  }
}
