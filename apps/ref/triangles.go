package ref

import (
	"slices"

	"github.com/mgraph-dev/mgraph/graph"
)

// Triangles counts the triangles of the undirected graph g: the sets
// {u, v, w} of three distinct vertices joined pairwise by edges. It returns
// their number and, for every vertex, the number of triangles it belongs to
// (NetworkX's nx.triangles), so the per-vertex counts sum to 3*total.
//
// g is read as a simple undirected graph (see simpleNeighbours): self-loops
// are ignored, duplicate arcs count once, and an arc u→v joins u and v
// whichever way it points, so a symmetric CSR gives exactly its edges.
//
// Method: with every neighbour set sorted, each triangle u < v < w is found
// exactly once, from its edge u–v with u < v, as a common neighbour w > v of
// u and v in a merge of their two sets. The cost is O(sum over edges u–v of
// deg(u) + deg(v)).
func Triangles(g *graph.CSR) (total uint64, perVertex []uint64) {
	nbrs := simpleNeighbours(g)
	perVertex = make([]uint64, len(nbrs))
	for u := range nbrs {
		for _, v := range nbrs[u] {
			if v <= uint32(u) {
				continue
			}
			// Merge N(u) and N(v), counting common neighbours w > v.
			a, b := nbrs[u], nbrs[v]
			i, j := 0, 0
			for i < len(a) && j < len(b) {
				switch {
				case a[i] < b[j]:
					i++
				case a[i] > b[j]:
					j++
				default:
					if w := a[i]; w > v {
						total++
						perVertex[u]++
						perVertex[v]++
						perVertex[w]++
					}
					i++
					j++
				}
			}
		}
	}
	return total, perVertex
}

// simpleNeighbours returns the neighbour sets of the simple undirected graph
// underlying g: w is a neighbour of v (and v one of w) when g has an arc v→w
// or w→v with v ≠ w. Each set is sorted and holds every neighbour once.
// For a symmetric CSR (an undirected graph) the set of v is exactly the
// distinct out-neighbours of v other than v itself; reading arcs both ways
// only makes a non-symmetric input well defined (as its underlying
// undirected graph) instead of silently one-sided.
func simpleNeighbours(g *graph.CSR) [][]uint32 {
	n := g.NumVertices
	nbrs := make([][]uint32, n)
	for u := uint32(0); uint64(u) < n; u++ {
		row, _ := g.Row(u)
		for _, v := range row {
			if v != u {
				nbrs[u] = append(nbrs[u], v)
				nbrs[v] = append(nbrs[v], u)
			}
		}
	}
	for v := range nbrs {
		slices.Sort(nbrs[v])
		nbrs[v] = slices.Clip(slices.Compact(nbrs[v]))
	}
	return nbrs
}

// maxSimpleDegree returns Δ, the largest neighbour-set size in nbrs (0 for
// no vertices).
func maxSimpleDegree(nbrs [][]uint32) uint64 {
	var d uint64
	for _, s := range nbrs {
		d = max(d, uint64(len(s)))
	}
	return d
}
