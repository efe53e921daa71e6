package ref

import (
	"fmt"
	"math"

	"github.com/mgraph-dev/mgraph/graph"
)

// PersonalizedPageRank computes PageRank on g with teleports (and dangling
// mass) sent to the given sources instead of to all vertices, by the same
// synchronous power iteration as PageRank. Its fixed point is NetworkX's
// pagerank(G, personalization={s: 1 for s in sources}) with the default
// dangling=None. It returns the ranks and the number of iterations run.
//
// Conventions (engines must follow them to agree with this oracle):
//
//   - The personalisation vector p is uniform over the distinct sources:
//     p(v) = 1/k for each of the k distinct vertices in sources, 0 for every
//     other vertex. A source listed twice counts once (as in NetworkX's
//     dict).
//   - Initial ranks are p (not 1/n as in PageRank and NetworkX; the fixed
//     point is the same). So a vertex that no source reaches has rank
//     exactly 0 after every iteration.
//   - One iteration computes, for every vertex v,
//     r_new(v) = (1-d)*p(v) + d*(D*p(v) + sum over arcs u→v of r_old(u)/outdeg(u)),
//     where D is the sum of r_old over dangling vertices (out-degree 0):
//     the rank of a dangling vertex goes back to the sources, so the ranks
//     always sum to 1 (up to rounding).
//   - Arcs are taken as in PageRank: outdeg counts arcs, duplicate arcs
//     weigh more, and a self-loop is an ordinary arc.
//   - Stopping is PageRank's: after the first iteration whose L1 change is
//     below opts.Tolerance, or after opts.MaxIterations iterations; the
//     count includes that last iteration. MaxIterations 0 returns p.
//
// It panics if a source is not a vertex of g, or if sources is empty and g
// is not. The empty graph with no sources gives no ranks and 0 iterations.
func PersonalizedPageRank(g *graph.CSR, sources []uint32, opts PageRankOptions) (ranks []float64, iterations int) {
	n := int(g.NumVertices)
	for _, s := range sources {
		if uint64(s) >= g.NumVertices {
			panic(fmt.Sprintf("ref.PersonalizedPageRank: source %d is not a vertex of a graph with %d vertices", s, n))
		}
	}
	if n == 0 {
		return []float64{}, 0
	}
	if len(sources) == 0 {
		panic("ref.PersonalizedPageRank: no sources")
	}
	p := make([]float64, n)
	k := 0
	for _, s := range sources {
		if p[s] == 0 {
			p[s] = 1
			k++
		}
	}
	for _, s := range sources {
		p[s] = 1 / float64(k)
	}
	d := opts.Damping
	ranks = make([]float64, n)
	next := make([]float64, n)
	copy(ranks, p)
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
		var change float64
		for v := range next {
			next[v] = (1-d)*p[v] + d*(dangling*p[v]+next[v])
			change += math.Abs(next[v] - ranks[v])
		}
		ranks, next = next, ranks
		if change < opts.Tolerance {
			break
		}
	}
	return ranks, iterations
}
