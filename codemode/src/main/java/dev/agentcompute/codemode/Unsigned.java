package dev.agentcompute.codemode;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Reads a {@code byte}, {@code short}, {@code int} or {@code long} (or its box, also as a type
 * argument) as unsigned: range 0..2^bits-1, and 0..2^63-1 for {@code long} on input. An unsigned
 * output above 2^63-1 is a capability failure.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE_USE)
public @interface Unsigned {}
