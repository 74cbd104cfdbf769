/**
 * The conformance runner's test mode ({@code starlark --test FILE},
 * docs/reference/starlark.md#test-mode): the {@code STARLARK_TEST_*} settings, the embedded {@code
 * assert.star} with its six native helpers, the loader, and starlark-go's test-only helpers
 * (hasfields, fibonacci, struct, gensym). Entry point: {@link
 * dev.agentcompute.starlark.testmode.TestMode#run}.
 */
package dev.agentcompute.starlark.testmode;
