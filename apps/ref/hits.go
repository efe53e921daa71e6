package ref

import (
	"math"

	"github.com/mgraph-dev/mgraph/graph"
)

// HITS computes Kleinberg's hub and authority scores of the directed graph
// g (an arc u→v makes u a hub pointing to the authority v) by power
// iteration. It returns the hubs, the authorities, each summing to 1, and
// the number of iterations run.
//
// Conventions (engines must follow them to agree with this oracle):
//
//   - A is the arc-count matrix: A[u][v] is the number of arcs u→v, so
//     duplicate arcs weigh more and a self-loop makes a vertex its own hub
//     and authority (as NetworkX does with edge weights and self-loops).
//     An undirected graph is its symmetric CSR.
//   - Initial hubs are h = 1/n for every vertex.
//   - One iteration computes a = Aᵀh (a(v) = sum over arcs u→v of h(u)),
//     then h = A a (h(u) = sum over arcs u→v of a(v)), with the new a, and
//     divides each of a and h by its sum, so both sum to 1 after every
//     iteration. A vector whose sum is 0 (a graph with no arcs) stays 0.
//   - The iteration stops after the first iteration in which the L1 change
//     of h, sum over v of |h_new(v) - h_old(v)|, is below tol, or after
//     maxIter iterations; the count includes that last iteration. maxIter
//     0 returns h = a = 1/n and 0 iterations.
//
// NetworkX's hits (power-iteration version) divides by the maximum during
// the iteration and by the sum at the end; the directions, hence the final
// sum-normalised fixed point, are the same, but its tolerance applies to
// max-normalised vectors, so iteration counts differ. When the top
// eigenvalue of AAᵀ is repeated (e.g. two components alike), the limit is
// the projection of the uniform start onto its eigenspace, which is what
// this iteration gives and what engines starting from 1/n converge to.
//
// The empty graph gives no scores and 0 iterations.
func HITS(g *graph.CSR, maxIter int, tol float64) (hubs, authorities []float64, iterations int) {
	n := int(g.NumVertices)
	hubs = make([]float64, n)
	authorities = make([]float64, n)
	if n == 0 {
		return hubs, authorities, 0
	}
	for v := range hubs {
		hubs[v] = 1 / float64(n)
		authorities[v] = 1 / float64(n)
	}
	next := make([]float64, n)
	for iterations < maxIter {
		iterations++
		for v := range authorities {
			authorities[v] = 0
		}
		for u := range n {
			nbrs, _ := g.Row(uint32(u))
			for _, v := range nbrs {
				authorities[v] += hubs[u]
			}
		}
		normalizeSum(authorities)
		for u := range n {
			nbrs, _ := g.Row(uint32(u))
			var h float64
			for _, v := range nbrs {
				h += authorities[v]
			}
			next[u] = h
		}
		normalizeSum(next)
		var change float64
		for v := range next {
			change += math.Abs(next[v] - hubs[v])
		}
		hubs, next = next, hubs
		if change < tol {
			break
		}
	}
	return hubs, authorities, iterations
}

// normalizeSum divides xs by its sum, leaving it alone when the sum is 0.
func normalizeSum(xs []float64) {
	var s float64
	for _, x := range xs {
		s += x
	}
	if s == 0 {
		return
	}
	for i := range xs {
		xs[i] /= s
	}
}
