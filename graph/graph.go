// Package graph holds mgraph's graph data types and the transforms between
// them: a COO edge list, compressed adjacencies (CSR for out-neighbours, CSC
// for in-neighbours) built by parallel counting sort, and the clean-ups users
// apply before preprocessing (symmetrize, dedupe, drop self-loops, random
// renumbering, edge weights). Readers and writers live in graph/format,
// generators in graph/gen.
//
// Vertex IDs are uint32 and edge offsets uint64, so graphs with more than
// 2^32 edges work where memory allows. Weights are uint32, or float32 stored
// as their bits in the same slices (WeightKind).
//
// Orientation: the MultiGraph papers store the edge matrix with row =
// destination and column = source. In graph terms that matrix's row-wise
// compression is this package's CSC (in-neighbours per vertex); its
// column-wise compression is CSR (out-neighbours per vertex).
package graph

import (
	"fmt"

	"github.com/mgraph-dev/mgraph/internal/par"
)

// MaxVertices is the largest vertex count a graph may have: IDs are uint32,
// so the largest ID is MaxVertices-1.
const MaxVertices = 1 << 32

// EdgeList is a graph as a list of arcs (coordinate format). Arc i goes from
// Src[i] to Dst[i] and has weight Weights[i] when Weights is not nil.
//
// An undirected graph (Directed == false) is stored symmetrized: every arc
// u→v with u ≠ v has its reverse v→u in the list as well, with the same
// weight. Readers and generators of undirected graphs keep that invariant.
type EdgeList struct {
	NumVertices uint64   // vertices are 0 .. NumVertices-1; at most MaxVertices
	Src         []uint32 // arc sources
	Dst         []uint32 // arc destinations
	Weights     []uint32 // nil, or one weight per arc
	// WeightKind says whether Weights holds integers or float32 bits; it
	// is Uint32Weights for an unweighted list.
	WeightKind WeightKind
	Directed   bool // false: the list is symmetric (see above)
}

// NumArcs returns the number of arcs (directed edges) in the list.
func (el *EdgeList) NumArcs() uint64 { return uint64(len(el.Src)) }

// Weighted reports whether the arcs carry weights.
func (el *EdgeList) Weighted() bool { return el.Weights != nil }

// Validate checks the list's internal consistency: equal slice lengths, a
// vertex count within MaxVertices, and every endpoint below NumVertices
// (on every core: ValidateWith(0)).
func (el *EdgeList) Validate() error { return el.ValidateWith(0) }

// validateMinArcs is the fewest arcs ValidateWith gives a worker.
const validateMinArcs = 1 << 16

// ValidateWith is Validate with the endpoints checked on workers goroutines
// (0: GOMAXPROCS); an error names the first bad arc, whatever the count.
func (el *EdgeList) ValidateWith(workers int) error {
	if el.NumVertices > MaxVertices {
		return fmt.Errorf("graph has %d vertices; at most %d are supported", el.NumVertices, uint64(MaxVertices))
	}
	if len(el.Src) != len(el.Dst) {
		return fmt.Errorf("edge list has %d sources but %d destinations", len(el.Src), len(el.Dst))
	}
	if el.Weights != nil && len(el.Weights) != len(el.Src) {
		return fmt.Errorf("edge list has %d arcs but %d weights", len(el.Src), len(el.Weights))
	}
	if err := checkWeightKind(el.WeightKind, el.Weights); err != nil {
		return fmt.Errorf("edge list: %w", err)
	}
	m := len(el.Src)
	chunks := par.Split(m, max(1, min(par.Workers(workers), m/validateMinArcs)))
	bad := make([]int, len(chunks)) // each chunk's first bad arc, or -1
	par.ForChunks(chunks, func(c par.Chunk) {
		bad[c.Index] = -1
		for i := c.Lo; i < c.Hi; i++ {
			if uint64(el.Src[i]) >= el.NumVertices || uint64(el.Dst[i]) >= el.NumVertices {
				bad[c.Index] = i
				return
			}
		}
	})
	for _, i := range bad {
		if i >= 0 {
			return fmt.Errorf("arc %d (%d→%d) has an endpoint outside 0..%d", i, el.Src[i], el.Dst[i], el.NumVertices-1)
		}
	}
	return nil
}

// Clone returns a deep copy of the list.
func (el *EdgeList) Clone() *EdgeList {
	c := &EdgeList{NumVertices: el.NumVertices, Directed: el.Directed, WeightKind: el.WeightKind}
	c.Src = append([]uint32(nil), el.Src...)
	c.Dst = append([]uint32(nil), el.Dst...)
	if el.Weights != nil {
		c.Weights = append([]uint32(nil), el.Weights...)
	}
	return c
}

// Adjacency is a compressed sparse adjacency: the neighbours of vertex v are
// Neighbors[Offsets[v]:Offsets[v+1]], with weights at the same positions of
// Weights when the graph is weighted. CSR and CSC embed it.
type Adjacency struct {
	NumVertices uint64
	Offsets     []uint64 // len NumVertices+1, Offsets[0] = 0
	Neighbors   []uint32
	Weights     []uint32 // nil, or parallel to Neighbors
	WeightKind  WeightKind
	Directed    bool
}

// NumArcs returns the number of stored arcs.
func (a *Adjacency) NumArcs() uint64 { return uint64(len(a.Neighbors)) }

// Weighted reports whether the arcs carry weights.
func (a *Adjacency) Weighted() bool { return a.Weights != nil }

// Degree returns the number of neighbours stored for v.
func (a *Adjacency) Degree(v uint32) uint64 { return a.Offsets[v+1] - a.Offsets[v] }

// Row returns v's neighbours (and their weights, or nil) as subslices.
func (a *Adjacency) Row(v uint32) ([]uint32, []uint32) {
	lo, hi := a.Offsets[v], a.Offsets[v+1]
	if a.Weights == nil {
		return a.Neighbors[lo:hi], nil
	}
	return a.Neighbors[lo:hi], a.Weights[lo:hi]
}

// Validate checks the offsets are monotone, start at 0, end at the arc count,
// and that every neighbour is a vertex of the graph.
func (a *Adjacency) Validate() error {
	if uint64(len(a.Offsets)) != a.NumVertices+1 {
		return fmt.Errorf("adjacency has %d offsets for %d vertices", len(a.Offsets), a.NumVertices)
	}
	if a.Offsets[0] != 0 || a.Offsets[a.NumVertices] != uint64(len(a.Neighbors)) {
		return fmt.Errorf("adjacency offsets span [%d, %d] but there are %d arcs", a.Offsets[0], a.Offsets[a.NumVertices], len(a.Neighbors))
	}
	if a.Weights != nil && len(a.Weights) != len(a.Neighbors) {
		return fmt.Errorf("adjacency has %d arcs but %d weights", len(a.Neighbors), len(a.Weights))
	}
	if err := checkWeightKind(a.WeightKind, a.Weights); err != nil {
		return fmt.Errorf("adjacency: %w", err)
	}
	for v := uint64(0); v < a.NumVertices; v++ {
		if a.Offsets[v+1] < a.Offsets[v] {
			return fmt.Errorf("adjacency offsets decrease at vertex %d", v)
		}
	}
	for i, u := range a.Neighbors {
		if uint64(u) >= a.NumVertices {
			return fmt.Errorf("arc %d points to vertex %d, outside 0..%d", i, u, a.NumVertices-1)
		}
	}
	return nil
}

// CSR is the out-adjacency of a graph: row v lists the destinations of the
// arcs leaving v.
type CSR struct{ Adjacency }

// CSC is the in-adjacency of a graph: row v lists the sources of the arcs
// entering v (the row-wise compression of the papers' edge matrix).
type CSC struct{ Adjacency }
