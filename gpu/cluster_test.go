package gpu_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/cuda"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/stretchr/testify/require"
)

// needClusters skips where the device has no thread-block clusters
// (compute capability below 9.0).
func needClusters(t *testing.T) cuda.ClusterShape {
	t.Helper()
	needGPU(t)
	sh, err := cuda.ClusterShapeOf(cuda.Device{})
	require.NoError(t, err)
	if sh.Blocks < 2 {
		t.Skip("the device has no thread-block clusters")
	}
	return sh
}

// tree7 returns the pairs of the complete 7-ary tree of the given depth
// (every vertex but the leaves 8 arcs: a narrow layout whose levels grow
// sevenfold) and its vertex count.
func tree7(depth int) ([][2]uint32, uint64) {
	n, width := uint64(0), uint64(1)
	for d := 0; d <= depth; d++ {
		n += width
		width *= 7
	}
	pairs := make([][2]uint32, 0, n-1)
	for v := uint64(1); v < n; v++ {
		pairs = append(pairs, [2]uint32{uint32((v - 1) / 7), uint32(v)})
	}
	return pairs, n
}

// TestClusterRuns: on narrow layouts mode auto runs a Brandes source in
// one thread-block cluster where one block does not take it, and a BFS
// in one block, then in the grid-wide async engine: a 300 × 300 grid from
// its centre (levels of up to 600 vertices: the block gives its level
// back; without block runs the BFS hands over to async after its first
// synchronous levels and the sources run in the cluster whole), a path
// (thousands of levels of one vertex), and a 7-ary tree of depth 7 (the
// block gives level 4 back; a Brandes source's cluster level of 16,807
// passes gpu.ClusterMaxLevel: it places the next, 117,649 vertices,
// spilled past its blocks' lists, and the source runs again async).
// After a BFS whose block gave a level back, the Brandes sources start in
// the cluster. Clusters of 2 blocks and the largest; BFS levels and BC
// against the references, and the trace's modes.
func TestClusterRuns(t *testing.T) {
	sh := needClusters(t)
	ctx := context.Background()
	grid := testgraphs.Generated(t, "grid:300", 1)
	grid.Symmetrize(2)
	treePairs, treeN := tree7(7)
	for _, c := range []struct {
		name string
		el   *graph.EdgeList
		src  uint32
		// the modes of a BFS with block runs, and of one without
		block, noBlock map[string]int
		outgrows       bool // the BFS's block gives a level back
		bcAsync        bool // the Brandes sources go async (a level too wide)
	}{
		{"grid", grid, 150*300 + 150, map[string]int{gpu.ModeBlock: 1, "async": 1}, map[string]int{"async": 1}, true, false},
		{"path", testgraphs.Path(5000), 0, map[string]int{gpu.ModeBlock: 1}, map[string]int{"async": 1}, false, false},
		{"tree", testgraphs.Undirected(treeN, treePairs...), 0,
			map[string]int{gpu.ModeBlock: 1, "async": 1}, map[string]int{}, true, true},
	} {
		g := graph.ToCSR(c.el, 4)
		l := build(t, c.el, testgraphs.SmallParams())
		for _, blocks := range []uint32{2, sh.Blocks} {
			for _, noBlock := range []bool{false, true} {
				tag := fmt.Sprintf("%s, clusters of %d", c.name, blocks)
				opts := []gpu.Option{gpu.WithClusterBlocks(blocks)}
				want := c.block
				if noBlock {
					tag += ", without block runs"
					opts = append(opts, gpu.WithoutBlockRuns())
					want = c.noBlock
				}
				gb, err := gpu.New(l, 2, opts...)
				require.NoError(t, err, tag)
				ro := engine.RunOptions{Mode: engine.Auto, Trace: true}
				levels, res, err := apps.BFS(ctx, gb, c.src, ro)
				require.NoError(t, err, tag+": bfs")
				require.NoError(t, apps.ValidateBFS(g, c.src, levels), tag+": bfs")
				modes := traceModes(res)
				for _, m := range []string{gpu.ModeBlock, gpu.ModeCluster, "async"} {
					require.Equal(t, want[m], modes[m], "%s: bfs %s in %v", tag, m, modes)
				}
				srcs := []uint32{c.src, 1}
				bc, res, err := apps.BC(ctx, gb, gb, srcs, ro)
				require.NoError(t, err, tag+": bc")
				require.NoError(t, apps.ValidateBC(g, srcs, bc), tag+": bc")
				// A BFS whose block gave a level back starts the
				// sources in the cluster (the layout outgrew one block),
				// as does a backend without block runs.
				modes = traceModes(res)
				if noBlock || c.outgrows {
					require.Zero(t, modes[gpu.ModeBlock], "%s: bc %v", tag, modes)
					require.Equal(t, len(srcs), modes[gpu.ModeCluster], "%s: bc %v", tag, modes)
				} else {
					require.Equal(t, len(srcs), modes[gpu.ModeBlock], "%s: bc %v", tag, modes)
				}
				wantAsync := 0
				if c.bcAsync {
					wantAsync = len(srcs)
				}
				require.Equal(t, wantAsync, modes["async"], "%s: bc %v", tag, modes)
				require.NoError(t, gb.Close(), tag)
			}
		}
	}
}

// TestClusterRunsOff: WithoutClusterRuns keeps the Brandes sources of a
// narrow layout that one block does not take on the grid-wide engines,
// and a cluster size that is not a power of two is refused.
func TestClusterRunsOff(t *testing.T) {
	sh := needClusters(t)
	ctx := context.Background()
	el := testgraphs.Path(3000)
	l := build(t, el, testgraphs.SmallParams())
	gb, err := gpu.New(l, 2, gpu.WithoutBlockRuns(), gpu.WithoutClusterRuns())
	require.NoError(t, err)
	srcs := []uint32{0, 1500}
	bc, res, err := apps.BC(ctx, gb, gb, srcs, engine.RunOptions{Mode: engine.Auto, Trace: true})
	require.NoError(t, err)
	require.NoError(t, apps.ValidateBC(graph.ToCSR(el, 2), srcs, bc))
	require.Zero(t, traceModes(res)[gpu.ModeCluster])
	require.NoError(t, gb.Close())
	_, err = gpu.New(l, 2, gpu.WithClusterBlocks(3))
	require.ErrorContains(t, err, "a cluster of 3 blocks")
	_, err = gpu.New(l, 2, gpu.WithClusterBlocks(sh.Blocks*2))
	require.Error(t, err)
}
