package ref

import (
	"math"

	"github.com/mgraph-dev/mgraph/graph"
)

// SALSA computes the hub and authority scores of the directed graph g by
// Lempel and Moran's Stochastic Approach for Link-Structure Analysis
// (2000), iterated as in Gunrock's SALSA app: every iteration takes one
// step of the random walk forward along the arcs and one step back. It
// returns the hubs, the authorities and the number of iterations run.
//
// Formula and conventions (engines must follow them to agree with this
// oracle):
//
//   - Initial hubs are h(u) = 1/H for each of the H vertices with
//     outdeg(u) > 0, and 0 elsewhere; initial authorities are a(v) = 1/A
//     for each of the A vertices with indeg(v) > 0, and 0 elsewhere.
//   - One iteration computes, in this order,
//     a_new(v) = sum over arcs u→v of h_old(u)/outdeg(u)   (authority step)
//     h_new(u) = sum over arcs u→v of a_new(v)/indeg(v)    (hub step, with the new a).
//     Each step moves all the mass along the arcs, so both vectors keep
//     summing to 1 (0 if g has no arcs), and no normalisation is done.
//   - outdeg and indeg count arcs: duplicate arcs weigh more and a
//     self-loop is an ordinary arc (its vertex is both hub and authority).
//   - The iteration stops after the first iteration in which the L1 change
//     of both h and a is below tol, or after maxIter iterations; the count
//     includes that last iteration. maxIter 0 returns the initial vectors.
//
// At the fixed point, within each connected component C of the bipartite
// hub–authority graph (hub copies u and authority copies v joined by the
// arcs u→v), a(v) = m(C)·indeg(v)/|arcs of C| and
// h(u) = m(C)·outdeg(u)/|arcs of C|, where m(C) = (hubs in C)/H is the mass
// that the uniform start puts on C's hubs and that the walk never moves to
// another component. (Lempel and Moran weight components by authority count
// instead; both agree on a connected graph.)
//
// The empty graph gives no scores and 0 iterations.
func SALSA(g *graph.CSR, maxIter int, tol float64) (hubs, authorities []float64, iterations int) {
	n := int(g.NumVertices)
	if n == 0 {
		return []float64{}, []float64{}, 0
	}
	outdeg := make([]uint64, n)
	indeg := make([]uint64, n)
	for u := range n {
		nbrs, _ := g.Row(uint32(u))
		outdeg[u] = uint64(len(nbrs))
		for _, v := range nbrs {
			indeg[v]++
		}
	}
	hubs = uniformOnPositive(outdeg)
	authorities = uniformOnPositive(indeg)
	nextH := make([]float64, n)
	nextA := make([]float64, n)
	for iterations < maxIter {
		iterations++
		for v := range nextA {
			nextA[v] = 0
		}
		for u := range n {
			if outdeg[u] == 0 {
				continue
			}
			nbrs, _ := g.Row(uint32(u))
			share := hubs[u] / float64(outdeg[u])
			for _, v := range nbrs {
				nextA[v] += share
			}
		}
		for u := range n {
			nbrs, _ := g.Row(uint32(u))
			var h float64
			for _, v := range nbrs {
				h += nextA[v] / float64(indeg[v])
			}
			nextH[u] = h
		}
		var changeH, changeA float64
		for v := range n {
			changeH += math.Abs(nextH[v] - hubs[v])
			changeA += math.Abs(nextA[v] - authorities[v])
		}
		hubs, nextH = nextH, hubs
		authorities, nextA = nextA, authorities
		if changeH < tol && changeA < tol {
			break
		}
	}
	return hubs, authorities, iterations
}

// uniformOnPositive returns 1/k on each of the k positions where deg > 0
// and 0 elsewhere.
func uniformOnPositive(deg []uint64) []float64 {
	k := 0
	for _, d := range deg {
		if d > 0 {
			k++
		}
	}
	xs := make([]float64, len(deg))
	for v, d := range deg {
		if d > 0 {
			xs[v] = 1 / float64(k)
		}
	}
	return xs
}
