package dev.agentcompute.codemode;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Renames a record component as seen by Starlark, discovery and authorization (the Java form of a
 * Go json tag). Root input names must be Starlark identifiers; nested input names and output names
 * must be valid JSON names (so {@code from} and {@code until-day} are legal there).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface StarlarkName {
  String value();
}
