/**
 * Library modules built only on the public value API: {@link dev.agentcompute.starlark.lib.Json}
 * (starlark-go's lib/json; CodeMode's module has exactly decode, encode and indent) and {@link
 * dev.agentcompute.starlark.lib.MathModule} (lib/math). Each charges its proportional work to the
 * calling {@link dev.agentcompute.starlark.eval.StarlarkThread}. CodeMode's {@code sum} builtin is
 * codemode's own (dev.agentcompute.codemode.worker).
 */
package dev.agentcompute.starlark.lib;
