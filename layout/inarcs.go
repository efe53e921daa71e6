package layout

import "github.com/mgraph-dev/mgraph/graph"

// InArcs is the in-adjacency of a layout in its own numbering: row v lists
// the sources of the arcs entering v, sorted, with their weights (nil when
// unweighted). Pull steps scan it. For an undirected layout it is the
// sparse part itself (a vertex's out-row is its in-row); for a directed one
// it is the sparse part transposed, which takes as much memory again.
type InArcs struct {
	Offsets []uint64 // n+1
	Src     []uint32 // m
	Weights []uint32 // nil, or parallel to Src
}

// In returns l's in-adjacency: the sparse part of an undirected layout
// (shared, no copy), or the transpose of a directed layout's sparse part,
// built with workers goroutines (0 = all cores). Rows are sorted by source,
// so that, as in the out-rows, the hubs (low new ids) come first.
func (l *Layout) In(workers int) *InArcs {
	if !l.Directed {
		return &InArcs{Offsets: l.SparseOffsets, Src: l.SparseDst, Weights: l.SparseWeights}
	}
	out := &graph.CSR{Adjacency: graph.Adjacency{NumVertices: l.NumVertices, Offsets: l.SparseOffsets,
		Neighbors: l.SparseDst, Weights: l.SparseWeights, Directed: true}}
	t := out.Transpose(workers)
	return &InArcs{Offsets: t.Offsets, Src: t.Neighbors, Weights: t.Weights}
}

// Bytes returns the memory the arrays take.
func (in *InArcs) Bytes() uint64 {
	return ArrayBytes(in.Offsets) + ArrayBytes(in.Src) + ArrayBytes(in.Weights)
}
