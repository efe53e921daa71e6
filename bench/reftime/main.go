// Command reftime times the serial references of the traversal apps
// (apps/ref: BFS, SSSP, CC and Brandes BC) alone on a graph file, the best
// of several runs after a warm-up, so that a GPU or CPU engine can be
// compared with the references' own work. (`mgraph run --validate` prints
// the validation's time, which also builds the graph in original ids from
// the layout and compares the results: several times the references'.)
//
//	go run ./bench/reftime [--source S] [--runs N] [--weight-seed W] GRAPH
//
// SSSP runs on weights drawn as `mgraph run --weights W` draws them
// (uniform in [1, 64]) when the graph has none; BC from S alone and from
// the eight sources 0..7.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/graph/format"
)

// Weights drawn for SSSP when the graph has none: mgraph run --weights'.
const (
	minWeight = 1
	maxWeight = 64
	bcSources = 8 // the many-source BC's sources, 0..bcSources−1
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "reftime:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("reftime", flag.ContinueOnError)
	source := fs.Uint("source", 0, "source vertex of bfs, sssp and bc")
	runs := fs.Int("runs", 9, "timed runs of each reference (the best is printed)")
	seed := fs.Uint64("weight-seed", 7, "seed of the weights drawn for sssp when the graph has none")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 || *runs < 1 {
		return fmt.Errorf("usage: reftime [--source S] [--runs N] [--weight-seed W] GRAPH (runs at least 1)")
	}
	path := fs.Arg(0)
	el, _, err := format.ReadFile(context.Background(), path, format.ReadOptions{})
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if uint64(*source) >= el.NumVertices {
		return fmt.Errorf("%s: source %d is not a vertex (%d vertices)", path, *source, el.NumVertices)
	}
	s := uint32(*source)
	w := el
	if !el.Weighted() {
		w = el.Clone()
		w.SetRandomWeights(*seed, minWeight, maxWeight, 1)
	}
	g, wg := graph.ToCSR(el, 1), graph.ToCSR(w, 1)
	fmt.Printf("%s: %d vertices, %d arcs, directed %v; best of %d runs\n", path, g.NumVertices, g.NumArcs(), g.Directed, *runs)
	many := make([]uint32, 0, bcSources)
	for v := uint32(0); v < bcSources && uint64(v) < g.NumVertices; v++ {
		many = append(many, v)
	}
	if _, err := ref.SSSP(wg, s); err != nil { // the weights are checked once, before the timings
		return fmt.Errorf("sssp: %w", err)
	}
	for _, r := range []struct {
		name string
		f    func()
	}{
		{"ref.BFS", func() { ref.BFS(g, s) }},
		{"ref.SSSP", func() { _, _ = ref.SSSP(wg, s) }},
		{"ref.CC", func() { ref.CCAdjacency(&g.Adjacency) }},
		{"ref.BC", func() { ref.BC(g, []uint32{s}) }},
		{fmt.Sprintf("ref.BC, %d sources", len(many)), func() { ref.BC(g, many) }},
	} {
		fmt.Printf("%-22s %v\n", r.name, best(*runs, r.f))
	}
	return nil
}

// best runs f once to warm up, then runs times, and returns the shortest.
func best(runs int, f func()) time.Duration {
	f()
	b := time.Duration(1<<63 - 1)
	for range runs {
		start := time.Now()
		f()
		b = min(b, time.Since(start))
	}
	return b
}
