package ref

import (
	"fmt"

	"github.com/mgraph-dev/mgraph/graph"
)

// BC computes betweenness centrality by Brandes' algorithm, summed over the
// given sources: for each source s, a BFS counts the shortest paths sigma
// (float64) from s to every vertex, then the dependencies
// delta(v) = sum over arcs v→w with level(w) = level(v)+1 of
// sigma(v)/sigma(w) * (1 + delta(w)) are accumulated in reverse BFS order,
// and bc(v) += delta(v) for every v ≠ s.
//
// Conventions (engines must follow them to agree with this oracle):
//
//   - Paths follow arcs; the graph is unweighted for BC (weights ignored).
//   - Unnormalised: no division by (n-1)(n-2) or similar.
//   - For an undirected graph every ordered pair (s, t) is counted, so each
//     unordered pair contributes twice (not halved), as in GAPBS. On the path
//     0-1-2-3-4, BCAll gives 0, 6, 8, 6, 0.
//   - The source gets no dependency from its own BFS, and path endpoints are
//     never counted.
//   - A source listed k times is counted k times.
//   - Duplicate arcs count as distinct paths (dedupe first for simple-graph
//     semantics); self-loops never lie on a shortest path.
//
// sigma is a float64, as in GAPBS, so it is exact up to 2^53 paths and
// overflows to +Inf (making results NaN) beyond about 1e308 shortest paths
// between two vertices, which large grids reach: a k×k grid has
// C(2k-2, k-1) shortest corner-to-corner paths, more than 1e308 from k ≈ 515.
//
// BC panics if a source is not a vertex of g. Its cost is O(V+E) per source.
func BC(g *graph.CSR, sources []uint32) []float64 {
	n := g.NumVertices
	bc := make([]float64, n)
	levels := make([]uint32, n)
	sigma := make([]float64, n)
	delta := make([]float64, n)
	order := make([]uint32, 0, n) // vertices in BFS order
	for v := range levels {
		levels[v] = Unreached
	}
	for _, s := range sources {
		if uint64(s) >= n {
			panic(fmt.Sprintf("ref.BC: source %d is not a vertex of a graph with %d vertices", s, n))
		}
		// Forward: BFS from s counting shortest paths.
		order = append(order[:0], s)
		levels[s] = 0
		sigma[s] = 1
		for head := 0; head < len(order); head++ {
			u := order[head]
			nbrs, _ := g.Row(u)
			for _, v := range nbrs {
				if levels[v] == Unreached {
					levels[v] = levels[u] + 1
					order = append(order, v)
				}
				if levels[v] == levels[u]+1 {
					sigma[v] += sigma[u]
				}
			}
		}
		// Backward: every successor w of v is at the next level, hence later
		// in order, so its delta is final when v is processed.
		for i := len(order) - 1; i >= 0; i-- {
			v := order[i]
			nbrs, _ := g.Row(v)
			for _, w := range nbrs {
				if levels[w] == levels[v]+1 {
					delta[v] += sigma[v] / sigma[w] * (1 + delta[w])
				}
			}
			if v != s {
				bc[v] += delta[v]
			}
		}
		// Reset only what this source touched.
		for _, v := range order {
			levels[v] = Unreached
			sigma[v] = 0
			delta[v] = 0
		}
	}
	return bc
}

// BCAll is BC with every vertex as a source (exact betweenness centrality).
// It costs O(V(V+E)), so it is for small graphs.
func BCAll(g *graph.CSR) []float64 {
	sources := make([]uint32, g.NumVertices)
	for v := range sources {
		sources[v] = uint32(v)
	}
	return BC(g, sources)
}
