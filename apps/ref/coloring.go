package ref

import (
	"fmt"

	"github.com/mgraph-dev/mgraph/graph"
)

// CheckColoring verifies a vertex colouring of the undirected graph g
// (colours are any uint32 values; engines usually number them from 0). It
// returns nil when
//
//   - colors has one entry per vertex,
//   - every arc u→v with u ≠ v joins two vertices of different colours
//     (self-loops are ignored), and
//   - every colour is at most Δ, the largest number of distinct neighbours
//     other than itself of any vertex (see simpleNeighbours; duplicate arcs
//     count once), so colours lie in 0..Δ and at most Δ+1 are used, the
//     bound every greedy colouring meets.
//
// Otherwise the error names the first offending arc (in CSR order) or, when
// no arc is bad, the first vertex whose colour is above Δ.
func CheckColoring(g *graph.CSR, colors []uint32) error {
	n := g.NumVertices
	if uint64(len(colors)) != n {
		return fmt.Errorf("got %d colours for %d vertices", len(colors), n)
	}
	for u := uint32(0); uint64(u) < n; u++ {
		row, _ := g.Row(u)
		for _, v := range row {
			if v != u && colors[u] == colors[v] {
				return fmt.Errorf("arc %d→%d joins two vertices of colour %d", u, v, colors[u])
			}
		}
	}
	maxDeg := maxSimpleDegree(simpleNeighbours(g))
	for v, c := range colors {
		if uint64(c) > maxDeg {
			return fmt.Errorf("vertex %d has colour %d, above the maximum degree %d (colours must be in 0..%d)",
				v, c, maxDeg, maxDeg)
		}
	}
	return nil
}

// NumColors returns the number of distinct colours in colors.
func NumColors(colors []uint32) int {
	count, _ := ComponentSizes(colors) // counts distinct labels
	return count
}
