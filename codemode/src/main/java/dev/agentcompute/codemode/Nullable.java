package dev.agentcompute.codemode;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an output component or element that may be null: notation {@code T | None}, null becomes
 * None. Any annotation named Nullable (e.g. JSpecify's) is honoured the same way.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE_USE)
public @interface Nullable {}
