package gpu_test

import (
	"context"
	"testing"

	"github.com/mgraph-dev/mgraph/apps"
	"github.com/mgraph-dev/mgraph/engine"
	"github.com/mgraph-dev/mgraph/gpu"
	"github.com/mgraph-dev/mgraph/graph"
	"github.com/mgraph-dev/mgraph/internal/testgraphs"
	"github.com/stretchr/testify/require"
)

// TestBlockRuns: mode auto hands a long BFS with small frontiers to one
// thread block, which gives a level wider than gpu.BlockMaxLevel back to
// the async engine (a path into a star), and runs a long Brandes source in
// one block (again async when it reaches so wide a level); with
// WithoutBlockRuns both stay on the grid-wide engines. BFS
// levels and BC against the references.
func TestBlockRuns(t *testing.T) {
	needGPU(t)
	ctx := context.Background()
	const pathLen, leaves = 40, gpu.BlockMaxLevel + 100
	var path, pathStar [][2]uint32
	for v := uint32(0); v+1 < 600; v++ {
		path = append(path, [2]uint32{v, v + 1})
	}
	for v := uint32(0); v+1 < pathLen; v++ {
		pathStar = append(pathStar, [2]uint32{v, v + 1})
	}
	for i := uint32(0); i < leaves; i++ {
		pathStar = append(pathStar, [2]uint32{pathLen - 1, pathLen + i})
	}
	grid := testgraphs.Generated(t, "grid:48", 1)
	grid.Symmetrize(2)
	for _, c := range []struct {
		name    string
		el      *graph.EdgeList
		handsOn bool // the block gives a level back to async
	}{
		{"path", testgraphs.Undirected(600, path...), false},
		{"grid", grid, false},
		{"path-star", testgraphs.Undirected(pathLen+leaves, pathStar...), true},
	} {
		g := graph.ToCSR(c.el, 4)
		l := build(t, c.el, testgraphs.SmallParams())
		for _, noBlock := range []bool{false, true} {
			tag := c.name
			var opts []gpu.Option
			if noBlock {
				tag += " without block runs"
				opts = append(opts, gpu.WithoutBlockRuns())
			}
			gb, err := gpu.New(l, 2, opts...)
			require.NoError(t, err, tag)
			ro := engine.RunOptions{Mode: engine.Auto, Trace: true}
			levels, res, err := apps.BFS(ctx, gb, 0, ro)
			require.NoError(t, err, tag+": bfs")
			require.NoError(t, apps.ValidateBFS(g, 0, levels), tag+": bfs")
			modes := traceModes(res)
			if noBlock {
				require.Zero(t, modes[gpu.ModeBlock], "%s: bfs %v", tag, modes)
				require.Equal(t, 1, modes["async"], "%s: bfs %v", tag, modes)
			} else {
				require.Equal(t, 1, modes[gpu.ModeBlock], "%s: bfs %v", tag, modes)
				want := 0
				if c.handsOn {
					want = 1
				}
				require.Equal(t, want, modes["async"], "%s: bfs %v", tag, modes)
			}
			srcs := []uint32{0, 3}
			bc, res, err := apps.BC(ctx, gb, gb, srcs, ro)
			require.NoError(t, err, tag+": bc")
			require.NoError(t, apps.ValidateBC(g, srcs, bc), tag+": bc")
			modes = traceModes(res)
			if noBlock {
				require.Zero(t, modes[gpu.ModeBlock], "%s: bc %v", tag, modes)
			} else {
				require.Equal(t, len(srcs), modes[gpu.ModeBlock], "%s: bc %v", tag, modes)
				want := 0
				if c.handsOn { // the block gives up at the leaves' level: the sources run again async
					want = len(srcs)
				}
				require.Equal(t, want, modes["async"], "%s: bc %v", tag, modes)
			}
			require.NoError(t, gb.Close(), tag)
		}
	}
}

// traceModes counts a run's trace entries by mode.
func traceModes(res engine.Result) map[string]int {
	modes := map[string]int{}
	for _, tr := range res.Trace {
		modes[tr.Mode]++
	}
	return modes
}
