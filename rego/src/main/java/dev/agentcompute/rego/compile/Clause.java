package dev.agentcompute.rego.compile;

import dev.agentcompute.rego.syntax.Position;

/**
 * One evaluable definition: a rule body with its head terms, or one {@code else} branch. {@code
 * args} are a function's parameter patterns, {@code tail} the non-ground steps of a reference head
 * ({@code p[k]} has tail {@code [k]}), {@code value} the head value (or the element of a {@code
 * contains} rule). All terms use the clause's frame of {@code slots} variables.
 */
public record Clause(Ir.S[] body, Ir.T[] args, Ir.T[] tail, Ir.T value, int slots, Position pos) {}
