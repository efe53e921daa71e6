package cuda

import (
	"errors"
	"unsafe"
)

// ClusterMaxBlocks is the largest thread-block cluster the cluster runs
// launch (MG_CLUSTER_MAX_BLOCKS).
const ClusterMaxBlocks = 16

// ClusterShape is what the cluster runs (BCCluster) can do on a device:
// level-synchronous Brandes sources over fixed-width rows spread
// over the blocks of one thread-block cluster, with the cluster's
// hardware barrier between levels (compute capability 9.0 and up).
type ClusterShape struct {
	Blocks   uint32 // the blocks of the largest cluster that launches (0: the device has no clusters)
	Vertices uint64 // the most vertices its visited bitmap takes
}

// ClusterShapeOf returns the cluster runs' shape on device dev
// (mg_cluster_max_vertices).
func ClusterShapeOf(dev Device) (ClusterShape, error) {
	v, b, err := backendClusterMaxVertices(dev.ordinal)
	if err != nil {
		return ClusterShape{}, err
	}
	return ClusterShape{Blocks: b, Vertices: v}, nil
}

// clusterSpillWords is MG_CLUSTER_SPILL_WORDS(n, ClusterMaxBlocks): the
// spill any cluster size takes over n vertices.
func clusterSpillWords(n uint64) int {
	return int(3 * ((n+31)/32 + ClusterMaxBlocks) * 32)
}

// ErrNoRows is returned by the cluster runs on a layout with a vertex of
// more than BlockRowWidth out-arcs (they read the fixed-width rows only).
var ErrNoRows = errors.New("a vertex has more out-arcs than the fixed-width rows hold")

// clusterArgs returns the rows (built on first use), the spill (allocated
// on first use, for any cluster size) and the statistics buffer of a
// cluster run over the state.
func (s *stepState) clusterArgs(what string, stats **Buffer[blockStats]) (rows, spill unsafe.Pointer, err error) {
	if rows, err = s.blockRowsFor(true); err != nil {
		return nil, nil, err
	}
	if rows == nil {
		return nil, nil, invalidf(what, "%v", ErrNoRows)
	}
	if s.clusterSpill == nil {
		b, err := allocOwned[uint32](&s.owned, s.dl.dev, clusterSpillWords(s.n))
		if err != nil {
			return nil, nil, err
		}
		s.clusterSpill = b
	}
	if *stats == nil {
		b, err := allocOwned[blockStats](&s.owned, s.dl.dev, 1)
		if err != nil {
			return nil, nil, err
		}
		*stats = b
	}
	return rows, s.clusterSpill.h.p, nil
}

// BCCluster runs Brandes from source s (layout numbering) in one
// thread-block cluster of blocks blocks on an undirected layout
// (mg_bc_cluster: the BFS making σ, then δ level by level up, over the
// fixed-width rows), leaving the dependencies for BCAccumulate, and waits
// for it. A BFS level of more than bailout vertices (0: never) stops it
// after the next level, with BlockStats.Left > 0 and the dependencies
// void: the caller then runs the source otherwise. BCReset must have been
// called; the layout must have at most ClusterShape.Vertices vertices and
// rows that fit.
func (r *SumRun) BCCluster(s, bailout, blocks uint32) (BlockStats, error) {
	if r.depth == nil {
		return BlockStats{}, invalidf("BCCluster", "BCReset was not called")
	}
	n := int(r.n)
	for _, b := range []struct {
		buf **Buffer[uint32]
		n   int
	}{{&r.blockLevels, n}, {&r.blockOrder, n}, {&r.levelEnd, n + 1}, {&r.queueRows, n * BlockRowWidth}} {
		if err := ensure(r, b.buf, b.n); err != nil {
			return BlockStats{}, err
		}
	}
	rows, spill, err := r.clusterArgs("BCCluster", &r.blockStats)
	if err != nil {
		return BlockStats{}, err
	}
	desc, ev := r.cargs()
	if err := backendBCCluster(r.dl.dev.ordinal, unsafe.Pointer(desc), rows, blocks, s, r.blockLevels.h.p,
		r.blockOrder.h.p, r.levelEnd.h.p, r.queueRows.h.p, spill, bailout, r.values.h.p, r.delta.h.p,
		r.blockStats.h.p, unsafe.Pointer(&ev[0])); err != nil {
		return BlockStats{}, err
	}
	return r.readBlockStats(r.blockStats, true)
}
