/**
 * starlark-go's lib/time ({@link dev.agentcompute.starlark.lib.time.TimeModule}), with Go's time
 * layouts ({@code GoTimeLayout}). Offered by the test mode only.
 */
package dev.agentcompute.starlark.lib.time;
