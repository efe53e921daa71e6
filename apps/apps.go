// Package apps holds mgraph's graph programs — BFS, SSSP, CC, PageRank
// (topology- and data-driven) and betweenness centrality — each written
// once against engine.Backend, so the same code runs on the CPU and the GPU
// in hybrid, dense or sparse mode. Inputs (sources) and results are in the
// graph's original vertex numbering; the layout's permutation stays inside.
//
// The serial reference implementations that every result is validated
// against live in apps/ref.
package apps

import (
	"fmt"
	"math"

	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// Unreached is the BFS level and SSSP distance of a vertex the source does
// not reach.
const Unreached = math.MaxUint32

// checkSource validates an original-numbering source and returns its
// layout id.
func checkSource(l *layout.Layout, source uint32) (uint32, error) {
	if uint64(source) >= l.NumVertices {
		return 0, fmt.Errorf("source %d is not a vertex: the graph has %d vertices (0..%d)",
			source, l.NumVertices, int64(l.NumVertices)-1)
	}
	return l.Perm[source], nil
}

// fill sets every element of s to x, in parallel.
func fill[V any](s []V, x V, workers int) {
	par.For(len(s), workers, 1<<15, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			s[i] = x
		}
	})
}
