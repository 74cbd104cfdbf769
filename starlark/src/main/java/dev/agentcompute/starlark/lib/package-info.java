/**
 * Library modules built only on the public value API: {@link dev.agentcompute.starlark.lib.Json}
 * (starlark-go's lib/json; CodeMode's module has exactly decode, encode and indent),
 * {@link dev.agentcompute.starlark.lib.MathModule} (lib/math) and CodeMode's {@code sum}
 * ({@link dev.agentcompute.starlark.lib.CodeModeSum}). Each charges its proportional work to the
 * calling {@link dev.agentcompute.starlark.eval.StarlarkThread}.
 */
package dev.agentcompute.starlark.lib;
