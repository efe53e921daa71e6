package ops

// Graph is a compressed adjacency on a device: row u's arcs are
// [Offsets[u], Offsets[u+1]) of Dst (and Weights, when weighted), sorted by
// destination. Arc ids are indexes into Dst. A device's Out and In graphs
// belong to it; those FilterArcs returns are the caller's to close.
type Graph struct {
	NumVertices uint64
	NumArcs     uint64
	Offsets     Mem // NumVertices+1 uint64
	Dst         Mem // NumArcs uint32
	Weights     Mem // NumArcs uint32, or nil
	owned       bool
	// Host slices of the arrays, on CPU devices (nil on a GPU).
	HostOffsets []uint64
	HostDst     []uint32
	HostWeights []uint32
}

// NewOwnedGraph is for devices: a graph made by an operator, freed by
// Close.
func NewOwnedGraph(n, m uint64, offsets, dst, weights Mem) *Graph {
	return &Graph{NumVertices: n, NumArcs: m, Offsets: offsets, Dst: dst, Weights: weights, owned: true}
}

// Weighted reports whether arcs carry weights.
func (g *Graph) Weighted() bool { return g.Weights != nil }

// Close frees a graph an operator made; a device's own graphs are left
// alone.
func (g *Graph) Close() error {
	if g == nil || !g.owned {
		return nil
	}
	var errs []error
	for _, m := range []Mem{g.Offsets, g.Dst, g.Weights} {
		if m != nil {
			errs = append(errs, m.Free())
		}
	}
	g.Offsets, g.Dst, g.Weights = nil, nil, nil
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
