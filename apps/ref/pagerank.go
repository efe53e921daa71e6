package ref

import (
	"math"

	"github.com/mgraph-dev/mgraph/graph"
)

// PageRankOptions controls PageRank.
type PageRankOptions struct {
	// Damping is the probability d of following an arc rather than jumping
	// to a uniformly random vertex; in [0, 1]. Default 0.85.
	Damping float64
	// Tolerance ends the iteration once the L1 change of an iteration,
	// sum over v of |r_new(v) - r_old(v)|, is below it (GAPBS-style).
	// Default 1e-4. Zero or negative: always run MaxIterations iterations.
	Tolerance float64
	// MaxIterations caps the number of iterations. Default 100, enough for
	// the default tolerance to decide on any graph (the L1 change shrinks
	// by a factor of at least Damping per iteration, from at most 2, so it
	// is below 1e-4 after at most 61 iterations). Zero returns the initial
	// uniform ranks.
	MaxIterations int
}

// DefaultPageRankOptions returns Damping 0.85, Tolerance 1e-4 and
// MaxIterations 100.
func DefaultPageRankOptions() PageRankOptions {
	return PageRankOptions{Damping: 0.85, Tolerance: 1e-4, MaxIterations: 100}
}

// PageRank computes PageRank on g by synchronous (Jacobi) power iteration in
// float64, pushing rank along out-arcs. It returns the ranks and the number
// of iterations run.
//
// Conventions (engines must follow them to agree with this oracle):
//
//   - Initial ranks are 1/n for every vertex.
//   - One iteration computes, for every vertex v,
//     r_new(v) = (1-d)/n + d*(D/n + sum over arcs u→v of r_old(u)/outdeg(u)),
//     where D is the sum of r_old over dangling vertices (out-degree 0).
//     That is, a dangling vertex's rank is redistributed uniformly to all
//     vertices (itself included) every iteration, so the ranks always sum
//     to 1 (up to rounding).
//   - outdeg counts arcs, so duplicate arcs weigh more and a self-loop is
//     an ordinary arc (a vertex whose only arc is a self-loop is not
//     dangling).
//   - The iteration stops after the first iteration whose L1 change,
//     sum over v of |r_new(v) - r_old(v)|, is below opts.Tolerance, or
//     after opts.MaxIterations iterations, whichever comes first; the
//     returned count includes that last iteration.
//
// The empty graph gives no ranks and 0 iterations.
func PageRank(g *graph.CSR, opts PageRankOptions) (ranks []float64, iterations int) {
	n := int(g.NumVertices)
	if n == 0 {
		return []float64{}, 0
	}
	d := opts.Damping
	ranks = make([]float64, n)
	next := make([]float64, n)
	for v := range ranks {
		ranks[v] = 1 / float64(n)
	}
	for iterations < opts.MaxIterations {
		iterations++
		var dangling float64
		for v := range next {
			next[v] = 0
		}
		for u := range n {
			nbrs, _ := g.Row(uint32(u))
			if len(nbrs) == 0 {
				dangling += ranks[u]
				continue
			}
			share := ranks[u] / float64(len(nbrs))
			for _, v := range nbrs {
				next[v] += share
			}
		}
		base := (1-d)/float64(n) + d*dangling/float64(n)
		var change float64
		for v := range next {
			next[v] = base + d*next[v]
			change += math.Abs(next[v] - ranks[v])
		}
		ranks, next = next, ranks
		if change < opts.Tolerance {
			break
		}
	}
	return ranks, iterations
}
