package ref

import (
	"slices"

	"github.com/mgraph-dev/mgraph/graph"
)

// CC labels the weakly connected components of el (arc directions are
// ignored, so directed and undirected inputs are treated alike) by
// union-find with union by rank and path halving. The label of every vertex
// is the smallest vertex ID in its component, so isolated vertices label
// themselves and the labeling is canonical: two correct results are equal.
func CC(el *graph.EdgeList) []uint32 {
	uf := newUnionFind(el.NumVertices)
	for i := range el.Src {
		uf.union(el.Src[i], el.Dst[i])
	}
	return uf.minLabels()
}

// CCAdjacency is CC on a compressed adjacency; pass &g.Adjacency of a
// graph.CSR or graph.CSC (either gives the same weak components).
func CCAdjacency(a *graph.Adjacency) []uint32 {
	uf := newUnionFind(a.NumVertices)
	for u := uint32(0); uint64(u) < a.NumVertices; u++ {
		nbrs, _ := a.Row(u)
		for _, v := range nbrs {
			uf.union(u, v)
		}
	}
	return uf.minLabels()
}

// unionFind is a disjoint-set forest over vertices 0..n-1.
type unionFind struct {
	parent []uint32
	rank   []uint8 // an upper bound on the height of each root's tree; at most 32
}

func newUnionFind(n uint64) *unionFind {
	uf := &unionFind{parent: make([]uint32, n), rank: make([]uint8, n)}
	for v := range uf.parent {
		uf.parent[v] = uint32(v)
	}
	return uf
}

// find returns the root of v's tree, halving the path on the way (every
// visited vertex is pointed to its grandparent).
func (uf *unionFind) find(v uint32) uint32 {
	for uf.parent[v] != v {
		uf.parent[v] = uf.parent[uf.parent[v]]
		v = uf.parent[v]
	}
	return v
}

// union merges the sets of u and v, hanging the lower-ranked root below the
// other.
func (uf *unionFind) union(u, v uint32) {
	ru, rv := uf.find(u), uf.find(v)
	if ru == rv {
		return
	}
	if uf.rank[ru] < uf.rank[rv] {
		ru, rv = rv, ru
	}
	uf.parent[rv] = ru
	if uf.rank[ru] == uf.rank[rv] {
		uf.rank[ru]++
	}
}

// minLabels returns, for every vertex, the smallest vertex of its set.
// Vertices are visited in increasing order, so the first vertex seen of a
// set is its smallest; that vertex is recorded in the label slot of the
// set's root (a root's own label is the same value, so the slot can be
// shared), and every vertex copies it from there.
func (uf *unionFind) minLabels() []uint32 {
	labels := make([]uint32, len(uf.parent))
	for v := range labels {
		labels[v] = Unreached
	}
	for v := range labels {
		r := uf.find(uint32(v))
		if labels[r] == Unreached {
			labels[r] = uint32(v)
		}
		labels[v] = labels[r]
	}
	return labels
}

// ComponentSizes returns the number of distinct labels in labels (the
// number of components) and the size of the largest component. Labels may
// be any uint32 values, not only vertex IDs.
func ComponentSizes(labels []uint32) (count int, largest uint64) {
	if len(labels) == 0 {
		return 0, 0
	}
	sizes, ok := countByVertexLabel(labels)
	if ok {
		for _, s := range sizes {
			if s > 0 {
				count++
				largest = max(largest, s)
			}
		}
		return count, largest
	}
	// Arbitrary labels: count runs in a sorted copy.
	sorted := slices.Clone(labels)
	slices.Sort(sorted)
	var run uint64
	for i := range sorted {
		if i > 0 && sorted[i] == sorted[i-1] {
			run++
		} else {
			count++
			run = 1
		}
		largest = max(largest, run)
	}
	return count, largest
}

// countByVertexLabel counts each label when all labels are vertex IDs
// (below len(labels)); ok is false otherwise.
func countByVertexLabel(labels []uint32) (sizes []uint64, ok bool) {
	sizes = make([]uint64, len(labels))
	for _, l := range labels {
		if uint64(l) >= uint64(len(labels)) {
			return nil, false
		}
		sizes[l]++
	}
	return sizes, true
}
