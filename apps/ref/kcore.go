package ref

import (
	"fmt"

	"github.com/mgraph-dev/mgraph/graph"
)

// CoreNumbers returns the core number of every vertex of the undirected
// graph g (NetworkX's core_number): the largest k such that the vertex
// belongs to the k-core, the largest subgraph in which every vertex has at
// least k neighbours. A vertex with no neighbours has core number 0.
//
// The degree of a vertex is its number of distinct neighbours other than
// itself: self-loops are ignored and duplicate arcs count once (g is read
// as a simple undirected graph, see simpleNeighbours; NetworkX refuses
// self-loops instead).
//
// Method: Batagelj and Zaversnik's O(V+E) peeling ("An O(m) Algorithm for
// Cores Decomposition of Networks", 2003). The vertices are bucket-sorted
// by degree into vert, with pos[v] the index of v in vert and bin[d] the
// index where degree d starts. They are removed in that order; removing v
// fixes core(v) = deg(v) and lowers by one the current degree of every
// neighbour u with deg(u) > deg(v), moving u to the front of its bucket and
// then shifting that bucket's start past it, which keeps vert sorted.
func CoreNumbers(g *graph.CSR) []uint32 {
	nbrs := simpleNeighbours(g)
	n := len(nbrs)
	deg := make([]uint32, n)
	maxDeg := uint32(0)
	for v := range nbrs {
		deg[v] = uint32(len(nbrs[v]))
		maxDeg = max(maxDeg, deg[v])
	}
	// bin[d] = first index in vert of the vertices of degree d.
	bin := make([]int, int(maxDeg)+1)
	for _, d := range deg {
		bin[d]++
	}
	start := 0
	for d := range bin {
		count := bin[d]
		bin[d] = start
		start += count
	}
	vert := make([]uint32, n)
	pos := make([]int, n)
	next := make([]int, len(bin)) // next free slot of each bucket while filling
	copy(next, bin)
	for v, d := range deg {
		pos[v] = next[d]
		vert[pos[v]] = uint32(v)
		next[d]++
	}
	for i := range n {
		v := vert[i]
		for _, u := range nbrs[v] {
			if deg[u] > deg[v] {
				// Swap u with the first vertex w of its bucket, then move the
				// bucket's start past u, so u joins bucket deg(u)-1.
				du := deg[u]
				pu, pw := pos[u], bin[du]
				w := vert[pw]
				if u != w {
					vert[pu], vert[pw] = w, u
					pos[u], pos[w] = pw, pu
				}
				bin[du]++
				deg[u]--
			}
		}
	}
	return deg
}

// CheckCoreNumbers compares core against CoreNumbers(g). It returns nil when
// they agree, otherwise an error naming the first vertex with a wrong core
// number and the number of wrong vertices.
func CheckCoreNumbers(g *graph.CSR, core []uint32) error {
	if uint64(len(core)) != g.NumVertices {
		return fmt.Errorf("got %d core numbers for %d vertices", len(core), g.NumVertices)
	}
	return compareExact(CoreNumbers(g), core, "core number", func(x uint32) string { return fmt.Sprint(x) })
}
