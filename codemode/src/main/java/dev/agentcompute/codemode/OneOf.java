package dev.agentcompute.codemode;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a root {@code String} input component (optional or not): the values the capability accepts,
 * shown in its signature as {@code until: "running" | "stopped"} so that an agent reads them in
 * search_api's and describe_api's answers (ours; Go has no such tag). Descriptive only: binding
 * does not check the value (the handler refuses others with its own text), and the field's shape
 * type stays {@code str}. Rejected on outputs, nested records, other types and an empty list.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface OneOf {
  /** The accepted values, in the order the signature shows them. */
  String[] value();
}
