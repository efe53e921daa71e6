package gpu

import (
	"errors"
	"fmt"
	"time"

	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
)

// ClusterMaxLevel is the largest level a cluster run goes on from: a
// Brandes source with a wider level (found when the next is made) runs
// again in the grid-wide async engine. A cluster of 16 blocks expands
// 8,192 vertices a round (a group of 8 lanes a vertex, 4 rounds a group);
// the 4096 grid's widest level has 8,190.
const ClusterMaxLevel = 16384

// ModeCluster names a cluster run in traces.
const ModeCluster = "cluster"

// start is where mode auto starts a traversal of a narrow layout.
type start int

const (
	startLevels  start = iota // the hybrid's levels (then maybe the hand-over)
	startBlock                // one thread block (iterateBlock, blockSource)
	startCluster              // one thread-block cluster (clusterSource)
	startAsync                // the grid-wide async engine (iterateAsync)
)

// clusterFits says whether a cluster run takes this backend's layout and
// a frontier of count vertices.
func (b *Backend) clusterFits(count uint64) bool {
	return b.cluster.Blocks >= 2 && b.cluster.Vertices >= b.l.NumVertices && count <= ClusterMaxLevel
}

// narrowStart says where mode auto starts a traversal from a frontier of
// count vertices, only on a layout whose rows are narrow enough for the
// fixed-width rows (every vertex at most cuda.BlockRowWidth out-arcs: road
// networks and meshes, whose thousands of levels are what these runs are
// for; on luxembourg_osm the synchronous iterations before auto hands over
// cost 8 µs each in the device loop); otherwise by levels. It starts in
// one thread block when the block takes the layout and the frontier. Once
// a block run over the layout has given a level back (outgrown), later
// traversals start where the block's levels would have gone, without
// running the block's first levels again: a Brandes source (levels, for
// σ and δ) in one cluster when that takes the layout, a BFS (which needs
// no levels: levels false) in the grid-wide async engine, which on the
// grids runs it in half the cluster's time. rows is the run state's
// BlockRows, which checks (and builds the rows) once.
func (b *Backend) narrowStart(rows func(use bool) (bool, error), count uint64, levels bool) (start, error) {
	block, cluster := b.blockFits(count), levels && b.clusterFits(count)
	if b.noBlockRows || (!block && !cluster) {
		return startLevels, nil
	}
	ok, err := rows(true)
	if err != nil {
		return startLevels, fmt.Errorf("cuda backend: %w", err)
	}
	switch {
	case !ok:
		return startLevels, nil
	case block && !b.outgrown.Load():
		return startBlock, nil
	case cluster:
		return startCluster, nil
	case !levels:
		return startAsync, nil
	default:
		return startBlock, nil
	}
}

// clusterBlocks is the cluster size the runs launch.
func (b *Backend) clusterBlocks() uint32 { return b.cluster.Blocks }

// clusterShape is the cluster runs' shape on dev with clusters of blocks
// blocks (WithClusterBlocks; 0: the largest that launches): the bitmap
// shrinks with the cluster.
func clusterShape(dev cuda.Device, blocks uint32) (cuda.ClusterShape, error) {
	sh, err := cuda.ClusterShapeOf(dev)
	if err != nil || blocks == 0 || sh.Blocks == 0 {
		return sh, err
	}
	if blocks < 2 || blocks > sh.Blocks || blocks&(blocks-1) != 0 {
		return sh, fmt.Errorf("a cluster of %d blocks: a power of two from 2 to %d on this device", blocks, sh.Blocks)
	}
	return cuda.ClusterShape{Blocks: blocks, Vertices: sh.Vertices / uint64(sh.Blocks) * uint64(blocks)}, nil
}

// clusterSource adds Brandes source s's dependencies to the sums in one
// thread-block cluster (cuda.SumRun.BCCluster: the BFS making σ, then δ
// level by level, the cluster's barrier between levels, over the
// fixed-width rows). One iteration of mode "cluster"; a source whose BFS
// reaches a level wider than ClusterMaxLevel, or that finds no room for
// the cluster's buffers, runs again without levels (asyncSource). The
// caller holds b.mu; the layout is undirected, narrow, and fits
// (clusterFits).
func (b *Backend) clusterSource(run *cuda.SumRun, s uint32, opts engine.RunOptions) (engine.Result, error) {
	begin := time.Now()
	st, err := run.BCCluster(s, ClusterMaxLevel, b.clusterBlocks())
	if oom := (*cuda.OutOfMemoryError)(nil); errors.As(err, &oom) {
		return b.asyncSource(run, s, opts)
	}
	if err == nil && st.Left == 0 {
		err = run.BCAccumulate(s)
	}
	res := engine.Result{Iterations: 1, Seconds: time.Since(begin).Seconds()}
	if err != nil {
		return res, fmt.Errorf("cuda backend: bc: %w", err)
	}
	if opts.Trace {
		res.Trace = append(res.Trace, blockTrace(ModeCluster, st, 1, res.Seconds))
	}
	if st.Left > 0 {
		ar, err := b.asyncSource(run, s, opts)
		if err != nil {
			return res, err
		}
		res.Switches++
		res.Add(ar)
	}
	return res, nil
}
