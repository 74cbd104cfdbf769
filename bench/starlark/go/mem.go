package main

import (
	"fmt"
	"os"
	"runtime"

	"go.starlark.net/starlark"
)

// memPerInterpreter keeps n fresh interpreters (thread + initialised globals) alive and prints
// the heap bytes each one holds, the figure StarlarkBench's "mem" mode prints for ours.
func memPerInterpreter(n int, file string, src []byte, predeclared starlark.StringDict) {
	keep := make([]interface{}, 0, 2*n)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := 0; i < n; i++ {
		thread := &starlark.Thread{Name: "bench"}
		globals, err := starlark.ExecFile(thread, file, src, predeclared)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		keep = append(keep, thread, globals)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(keep)
	fmt.Printf("%d %d\n", (int64(after.HeapAlloc)-int64(before.HeapAlloc))/int64(n), len(keep)/2)
}
