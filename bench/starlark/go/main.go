// Command starlark-go-bench runs a Starlark benchmark program with starlark-go, the reference
// our interpreter is measured against. The program defines main(); top-level code runs once.
//
//	starlark-go-bench FILE            one shot: run main() once, print its value
//	starlark-go-bench -warm N FILE    run main() N times after N warm-up runs, print the median ns
//	starlark-go-bench -mem N FILE     keep N initialised interpreters alive, print bytes each
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkjson"
)

func main() {
	warm := flag.Int("warm", 0, "run main() this many times and report the median ns per run")
	mem := flag.Int("mem", 0, "keep this many initialised interpreters alive and report bytes each")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: starlark-go-bench [-warm N] FILE")
		os.Exit(2)
	}
	file := flag.Arg(0)
	src, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	predeclared := starlark.StringDict{"json": starlarkjson.Module}
	run := func() (starlark.Value, error) {
		thread := &starlark.Thread{Name: "bench"}
		globals, err := starlark.ExecFile(thread, file, src, predeclared)
		if err != nil {
			return nil, err
		}
		return starlark.Call(thread, globals["main"], nil, nil)
	}
	if *mem > 0 {
		memPerInterpreter(*mem, file, src, predeclared)
		return
	}
	if *warm == 0 {
		v, err := run()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(v.String())
		return
	}
	for i := 0; i < *warm; i++ {
		if _, err := run(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	times := make([]int64, 0, *warm)
	for i := 0; i < *warm; i++ {
		start := time.Now()
		if _, err := run(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		times = append(times, time.Since(start).Nanoseconds())
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	fmt.Println(times[len(times)/2])
}
