package dev.agentcompute.rego.compile;

import java.util.List;

/**
 * A prepared query: its ordered body, frame size, and the variables whose bindings form each result
 * row (sorted by name).
 */
public record CompiledQuery(
    CompiledPolicy policy, Ir.S[] body, int slots, List<Ir.Local> outputs) {}
