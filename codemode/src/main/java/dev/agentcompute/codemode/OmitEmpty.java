package dev.agentcompute.codemode;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On an optional output component ({@code Optional}, {@code OptionalLong}, {@code OptionalDouble}
 * or {@code @Nullable}): omit the field when empty instead of returning None; notation {@code
 * name?: T} (nested) or {@code required: false} (root). Accepted on optional inputs, rejected on
 * every other component (the Java form of Go's {@code omitempty}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface OmitEmpty {}
