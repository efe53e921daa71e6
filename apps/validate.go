package apps

import (
	"errors"
	"fmt"
	"math"

	"github.com/mgraph-dev/mgraph/apps/ref"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/par"
	"github.com/mgraph-dev/mgraph/layout"
)

// OriginalCSR rebuilds the graph's out-adjacency in original numbering from
// the layout's sparse part (which holds every arc once), so a result can be
// validated without reading the input again.
func OriginalCSR(l *layout.Layout, workers int) *graph.CSR {
	n := l.NumVertices
	g := &graph.CSR{Adjacency: graph.Adjacency{
		NumVertices: n,
		Offsets:     make([]uint64, n+1),
		Neighbors:   make([]uint32, l.NumArcs),
		Directed:    l.Directed,
	}}
	if l.Weighted {
		g.Weights, g.WeightKind = make([]uint32, l.NumArcs), l.WeightKind
	}
	for old := uint64(0); old < n; old++ {
		g.Offsets[old+1] = g.Offsets[old] + l.OutDegree(l.Perm[old])
	}
	par.For(int(n), workers, 1<<14, func(lo, hi int) {
		for old := lo; old < hi; old++ {
			v := l.Perm[old]
			src := l.SparseOffsets[v]
			dst := g.Offsets[old]
			for i := uint64(0); i < l.OutDegree(v); i++ {
				g.Neighbors[dst+i] = l.InvPerm[l.SparseDst[src+i]]
				if l.Weighted {
					g.Weights[dst+i] = l.SparseWeights[src+i]
				}
			}
		}
	})
	return g
}

// ValidateBFS checks levels against the reference BFS from source.
func ValidateBFS(g *graph.CSR, source uint32, levels []uint32) error {
	return ValidateBFSWithin(g, source, 0, levels)
}

// ValidateBFSWithin checks levels of a BFS with depth limit depth (> 0;
// 0 is none) against the reference cut at that depth.
func ValidateBFSWithin(g *graph.CSR, source uint32, depth int, levels []uint32) error {
	want, _ := ref.BFS(g, source)
	cutLevels(want, depth)
	return ref.CompareLevels(want, levels)
}

// cutLevels makes every level beyond depth (when > 0) Unreached.
func cutLevels(levels []uint32, depth int) {
	if depth <= 0 {
		return
	}
	for v, x := range levels {
		if x != Unreached && x > uint32(depth) {
			levels[v] = Unreached
		}
	}
}

// ValidateBFSTreeWithin is ValidateBFSTree for a depth-limited tree: the
// reference's levels cut at depth (> 0; 0 is none).
func ValidateBFSTreeWithin(g *graph.CSR, source uint32, depth int, parents []uint32) error {
	levels, _ := ref.BFS(g, source)
	cutLevels(levels, depth)
	return ref.CheckTree(g, source, levels, parents)
}

// ValidateBFSTree checks a BFS tree (parents, as BFSParents gives it)
// against the reference: the source is its own parent, exactly the
// reference's reached vertices have one, and each parent has an arc to its
// child and sits one level up.
func ValidateBFSTree(g *graph.CSR, source uint32, parents []uint32) error {
	return ValidateBFSTreeWithin(g, source, 0, parents)
}

// ValidateSSSP checks distances against Dijkstra from source. A reference
// distance of 2^32−1 or more must read as Unreached (saturated).
//
// From SSSPCertificateArcs arcs on, it checks the distances' certificate
// instead (CheckSSSPCertificate on every core), unless a weight is zero.
func ValidateSSSP(g *graph.CSR, source uint32, dist []uint32) error {
	if g.NumArcs() >= SSSPCertificateArcs {
		if err := CheckSSSPCertificate(g, source, dist, 0); !errors.Is(err, ErrZeroWeight) {
			return err
		}
	}
	want, err := ref.SSSP(g, source)
	if err != nil {
		return err
	}
	got := make([]uint64, len(dist))
	for i, d := range dist {
		got[i] = uint64(d)
		if d == Unreached {
			got[i] = ref.Infinity
		}
	}
	for i, w := range want {
		if w >= Unreached {
			want[i] = ref.Infinity
		}
	}
	return ref.CompareDistances(want, got)
}

// ValidateSSSPFloat32 checks float32 distances (+Inf where unreached)
// against the reference's float32 Dijkstra from source, exactly (see
// ref.SSSPFloat32 for why the engines' result is exact).
func ValidateSSSPFloat32(g *graph.CSR, source uint32, dist []float32) error {
	want, err := ref.SSSPFloat32(g, source)
	if err != nil {
		return err
	}
	return ref.CompareFloat32Distances(want, dist)
}

// ValidateCC checks labels against union-find: the same partition and the
// same labels (the smallest member id).
func ValidateCC(g *graph.CSR, labels []uint32) error {
	want := ref.CCAdjacency(&g.Adjacency)
	if err := ref.SamePartition(want, labels); err != nil {
		return err
	}
	return ref.CompareLevels(want, labels)
}

// PageRankRelTol and PageRankAbsTol bound the per-vertex difference between
// topology-driven PageRank and the reference run with the same options
// (same iteration, different summation order).
const (
	PageRankRelTol = 1e-6
	PageRankAbsTol = 1e-12
)

// ValidatePageRank checks topology-driven ranks against the reference run
// with the same damping, tolerance and iteration cap.
func ValidatePageRank(g *graph.CSR, opts PageRankOptions, ranks []float64) error {
	want, _ := ref.PageRank(g, ref.PageRankOptions{Damping: opts.Damping, Tolerance: opts.Tolerance, MaxIterations: opts.MaxIterations})
	return ref.CompareFloats(want, ranks, PageRankRelTol, PageRankAbsTol)
}

// ValidatePageRankDelta checks data-driven ranks against the converged
// reference: their L1 distance must be within twice the tolerance (the
// method bounds it by the tolerance; the factor leaves room for the
// reference's own error).
func ValidatePageRankDelta(g *graph.CSR, opts PageRankOptions, ranks []float64) error {
	want, _ := ref.PageRank(g, ref.PageRankOptions{Damping: opts.Damping, Tolerance: 1e-13, MaxIterations: 10000})
	if len(want) != len(ranks) {
		return fmt.Errorf("pagerank: %d ranks, want %d", len(ranks), len(want))
	}
	var l1 float64
	worst, at := 0.0, -1
	for v := range want {
		d := math.Abs(want[v] - ranks[v])
		if math.IsNaN(d) {
			return fmt.Errorf("pagerank: vertex %d has rank %g", v, ranks[v])
		}
		l1 += d
		if d > worst {
			worst, at = d, v
		}
	}
	if bound := 2 * opts.Tolerance; l1 > bound {
		return fmt.Errorf("pagerank: L1 distance to the converged ranks %.3g exceeds %.3g (worst vertex %d: %g, want %g)",
			l1, bound, at, ranks[at], want[at])
	}
	return nil
}

// BCRelTol and BCAbsTol bound the per-vertex difference between BC and
// the reference (same algorithm, different summation order).
const (
	BCRelTol = 1e-9
	BCAbsTol = 1e-9
)

// ValidateBC checks centralities against Brandes' algorithm from the same
// sources.
func ValidateBC(g *graph.CSR, sources []uint32, bc []float64) error {
	return ref.CompareFloats(ref.BC(g, sources), bc, BCRelTol, BCAbsTol)
}
