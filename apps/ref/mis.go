package ref

import (
	"fmt"

	"github.com/mgraph-dev/mgraph/graph"
)

// CheckMIS verifies that inSet marks a maximal independent set of the
// undirected graph g. It returns nil when
//
//   - inSet has one entry per vertex,
//   - the set is independent: no arc u→v with u ≠ v has both ends in the
//     set (self-loops are ignored), and
//   - the set is maximal: every vertex outside it has a neighbour (an arc
//     to or from a vertex other than itself) inside it. So a vertex whose
//     only arcs are self-loops, or that has none, must be in the set.
//
// Otherwise the error names the first offending arc (in CSR order) or, when
// the set is independent, the first vertex that could be added to it.
func CheckMIS(g *graph.CSR, inSet []bool) error {
	n := g.NumVertices
	if uint64(len(inSet)) != n {
		return fmt.Errorf("got %d set flags for %d vertices", len(inSet), n)
	}
	// covered[v]: v has a neighbour in the set.
	covered := make([]bool, n)
	for u := uint32(0); uint64(u) < n; u++ {
		row, _ := g.Row(u)
		for _, v := range row {
			if v == u {
				continue
			}
			if inSet[u] && inSet[v] {
				return fmt.Errorf("vertices %d and %d are both in the set but joined by arc %d→%d (not independent)", u, v, u, v)
			}
			if inSet[u] {
				covered[v] = true
			}
			if inSet[v] {
				covered[u] = true
			}
		}
	}
	for v := range inSet {
		if !inSet[v] && !covered[v] {
			return fmt.Errorf("vertex %d is not in the set and has no neighbour in it (not maximal)", v)
		}
	}
	return nil
}
